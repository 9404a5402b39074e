import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { checkNodeNotifier } from "../../src/sinks/node-notifier-checks.js";
import { nodeNotifierVendorDir } from "../../src/sinks/node-notifier-vendor.js";
import { desktopEntry } from "../helpers/sink-harness.js";

const entry = desktopEntry({ backend: "node-notifier", appName: "hook-notify" });

// A node-notifier vendor folder with the two programs, executable or not.
function vendor(mode: number): string {
  const dir = mkdtempSync(join(tmpdir(), "hn-vendor-"));
  onTestFinished(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const mac = join(dir, "mac.noindex", "terminal-notifier.app", "Contents", "MacOS");
  mkdirSync(mac, { recursive: true });
  mkdirSync(join(dir, "snoreToast"));
  for (const file of [
    join(mac, "terminal-notifier"),
    join(dir, "snoreToast", "snoretoast-x64.exe"),
  ]) {
    writeFileSync(file, "");
    chmodSync(file, mode);
  }
  return dir;
}
const executable = (path: string) => !path.includes("missing");

describe("doctor: the node-notifier backend", () => {
  it("finds the vendored programs of the installed node-notifier", () => {
    expect(nodeNotifierVendorDir()).toMatch(/node-notifier[/\\]vendor$/);
  });

  it("macOS: terminal-notifier present, and where to look if no banner shows", () => {
    const result = checkNodeNotifier(entry, { env: {}, platform: "darwin" }, vendor(0o755));
    expect(result).toMatchObject({ status: "ok" });
    expect(result?.detail).toContain("System Settings → Notifications → terminal-notifier");
  });

  it("macOS: a missing terminal-notifier fails with a reinstall fix", () => {
    const result = checkNodeNotifier(
      entry,
      { env: {}, platform: "darwin" },
      join(vendor(0o755), "missing"),
      executable,
    );
    expect(result).toMatchObject({ status: "fail", sink: "desk" });
    expect(result?.fix).toMatch(/^Reinstall hook-notify/);
  });

  it("WSL: SnoreToast without the execute bit fails with the chmod to run", () => {
    const dir = vendor(0o644);
    const result = checkNodeNotifier(
      entry,
      { env: { WSL_DISTRO_NAME: "Ubuntu" }, platform: "linux" },
      dir,
      (path) => !path.endsWith(".exe"),
    );
    expect(result).toMatchObject({ status: "fail" });
    expect(result?.fix).toBe(
      `chmod +x ${join(dir, "snoreToast")}/*.exe (npm unpacked them without the execute bit)`,
    );
  });

  it("Windows and WSL: SnoreToast present, with the toast app ID", () => {
    for (const deps of [
      { env: {}, platform: "win32" as const },
      { env: { WSL_INTEROP: "/run/WSL/1_interop" }, platform: "linux" as const },
    ]) {
      const result = checkNodeNotifier(entry, deps, vendor(0o755), () => true);
      expect(result).toMatchObject({ status: "ok" });
      expect(result?.detail).toContain('toast app ID "hook-notify"');
    }
  });

  it("plain Linux: nothing to say here (node-notifier runs notify-send, checked as such)", () => {
    expect(checkNodeNotifier(entry, { env: {}, platform: "linux" }, vendor(0o755))).toBeUndefined();
  });
});
