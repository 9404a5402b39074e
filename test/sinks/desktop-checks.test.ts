import { describe, expect, it } from "vitest";
import {
  checkDesktop,
  checkMacDesktop,
  checkWindowsDesktop,
} from "../../src/sinks/desktop-checks.js";
import { POWERSHELL_APP_ID } from "../../src/sinks/desktop-windows.js";
import { findProgram } from "../../src/sinks/find-program.js";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";
import { fakeBin } from "../helpers/fake-bin.js";
import { desktopEntry } from "../helpers/sink-harness.js";

const isLinux = process.platform === "linux";
const entry = desktopEntry({ backend: "auto", appName: "hook-notify" });
const WSL = { platform: "linux" as const, osRelease: "5.15.167.4-microsoft-standard-WSL2" };
const interopOn = () => true;

// reg.exe's answer to `reg query <key> /v <name>` for one DWORD value.
function regAnswer(name: string, value: number): string {
  return `\r\nHKEY_CURRENT_USER\\...\r\n    ${name}    REG_DWORD    0x${value.toString(16)}\r\n\r\n`;
}

describe.runIf(isLinux)("doctor: the desktop route on macOS (simulated)", () => {
  it("Apple Silicon: runs arch -x86_64 /usr/bin/true, and without Rosetta names osascript and Script Editor", async () => {
    const bin = fakeBin(["arch", "osascript"], { env: { FAKE_BIN_EXIT_arch: "1" } });
    const result = await checkMacDesktop(entry, {
      env: bin.env,
      platform: "darwin",
      arch: "arm64",
    });
    expect(bin.calls()).toMatchObject([{ program: "arch", args: ["-x86_64", "/usr/bin/true"] }]);
    expect(result.status).toBe("ok");
    expect(result.detail).toMatch(
      /^Apple Silicon without Rosetta 2 .*: osascript display notification/,
    );
    expect(result.detail).toContain("System Settings → Notifications");
  });

  it("fails when osascript is not there either", async () => {
    const bin = fakeBin(["arch"], { env: { FAKE_BIN_EXIT_arch: "1" } });
    const result = await checkMacDesktop(entry, {
      env: bin.env,
      platform: "darwin",
      arch: "arm64",
    });
    expect(result).toMatchObject({ status: "fail", sink: "desk" });
  });

  it("Intel: terminal-notifier first, no arch probe", async () => {
    const bin = fakeBin(["arch", "osascript"]);
    const result = await checkMacDesktop(entry, { env: bin.env, platform: "darwin", arch: "x64" });
    expect(bin.calls()).toEqual([]);
    expect(result.detail).toMatch(
      /^Intel Mac \(x86_64\): terminal-notifier .*osascript if it fails/,
    );
  });
});

describe.runIf(isLinux)("doctor: the desktop route on Windows and WSL (simulated)", () => {
  it("reads both registry switches with reg.exe and says toasts are on", async () => {
    const bin = fakeBin(["powershell.exe", "reg.exe"], {
      env: { FAKE_BIN_STDOUT_reg_exe: regAnswer("ToastEnabled", 1) },
    });
    const result = await checkWindowsDesktop(entry, { env: bin.env, platform: "win32" });
    expect(bin.calls().map((c) => c.args)).toEqual([
      [
        "query",
        "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\PushNotifications",
        "/v",
        "ToastEnabled",
      ],
      [
        "query",
        `HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Notifications\\Settings\\${POWERSHELL_APP_ID}`,
        "/v",
        "Enabled",
      ],
    ]);
    expect(result.status).toBe("ok");
    expect(result.detail).toContain(
      `toast under app ID ${POWERSHELL_APP_ID}; notifications are on`,
    );
  });

  it.each([
    ["all toasts", "ToastEnabled", /Windows notifications are turned off/],
    ["the app's toasts", "Enabled", /notifications from that app are turned off/],
  ])("fails when %s are turned off", async (_n, name, detail) => {
    const bin = fakeBin(["powershell.exe", "reg.exe"], {
      env: { FAKE_BIN_STDOUT_reg_exe: regAnswer(name, 0) },
    });
    const result = await checkWindowsDesktop(entry, { env: bin.env, platform: "win32" });
    expect(result).toMatchObject({ status: "fail", sink: "desk" });
    expect(result.detail).toMatch(detail);
    expect(result.fix).toContain("Settings → System → Notifications");
  });

  it("WSL: names the route through interop, and fails when interop is off", async () => {
    const bin = fakeBin(["powershell.exe"]);
    const on = await checkWindowsDesktop(entry, { env: bin.env, ...WSL }, interopOn);
    expect(on.detail).toMatch(/^WSL → .*powershell\.exe shows a toast/);
    const off = await checkWindowsDesktop(entry, { env: bin.env, ...WSL }, () => false);
    expect(off).toMatchObject({ status: "fail" });
    expect(off.fix).toContain("/etc/wsl.conf");
  });

  it("fails without powershell.exe, with where to get it back", async () => {
    const bin = fakeBin(["reg.exe"]);
    const result = await checkWindowsDesktop(entry, { env: bin.env, ...WSL }, interopOn);
    expect(result).toMatchObject({ status: "fail", detail: "powershell.exe not found" });
    expect(result.fix).toContain("appendWindowsPath");
  });
});

describe.runIf(isLinux)("doctor: the notification service on Linux", () => {
  it("names who owns org.freedesktop.Notifications on a session bus that answers", async () => {
    const bus = await fakeNotificationBus();
    const monitor = findProgram("dbus-monitor", process.env, "linux");
    const bin = fakeBin([], monitor ? { real: { "dbus-monitor": monitor } } : {});
    const result = await checkDesktop(entry, {
      env: { ...bin.env, ...bus.env },
      platform: "linux",
      arch: "x64",
    });
    expect(result.status).toBe("ok");
    expect(result.detail).toMatch(
      /^the session bus answers; org\.freedesktop\.Notifications is \S+/,
    );
  });

  it("fails, naming the fix, when no session bus answers or nobody owns the name", async () => {
    const absent = await fakeNotificationBus({ noDaemon: true });
    for (const env of [{ DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/bus" }, absent.env]) {
      const result = await checkDesktop(entry, { env, platform: "linux", arch: "x64" });
      expect(result.status).toBe("fail");
      expect(result.detail).toMatch(/^no notification service answers on the session bus \(.+\)$/);
      expect(result.fix).toContain("notification daemon");
    }
  });

  it("warns when dbus-monitor is missing: no click action, no close reason in the log", async () => {
    const bus = await fakeNotificationBus();
    const result = await checkDesktop(entry, {
      env: { ...fakeBin([]).env, ...bus.env },
      platform: "linux",
      arch: "x64",
    });
    expect(result.status).toBe("warn");
    expect(result.detail).toContain("no dbus-monitor");
    expect(result.fix).toContain("dbus-bin");
  });

  it("does not ask for it when focusSeconds is 0 (nothing is followed)", async () => {
    const bus = await fakeNotificationBus();
    const off = desktopEntry({ backend: "auto", appName: "hook-notify", focusSeconds: 0 });
    const result = await checkDesktop(off, {
      env: { ...fakeBin([]).env, ...bus.env },
      platform: "linux",
      arch: "x64",
    });
    expect(result.status).toBe("ok");
  });

  it("checks notify-send on PATH for node-notifier, which runs it here", async () => {
    const notifier = desktopEntry({ backend: "node-notifier", appName: "hook-notify" });
    const result = await checkDesktop(notifier, {
      env: { ...fakeBin([]).env, DISPLAY: ":0" },
      platform: "linux",
      arch: "x64",
    });
    expect(result).toMatchObject({ status: "fail" });
    expect(result.detail).toContain("notify-send is not on PATH");
  });
});
