import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  readDnd,
  inhibitedReading,
  readMacAssertions,
  readShowBanners,
  readWindowsToasts,
} from "../../src/presence/dnd.js";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";
import { tempDir } from "../helpers/sink-harness.js";
import {
  notificationDaemonTools,
  startNotificationDaemon,
} from "../helpers/notification-daemon.js";

describe("the Do Not Disturb parsers", () => {
  it("GNOME show-banners", () => {
    expect(readShowBanners("false\n")).toMatchObject({ on: true, source: "gsettings" });
    expect(readShowBanners("true\n")).toMatchObject({ on: false });
    expect(readShowBanners("")).toMatchObject({ on: undefined });
  });

  it("the daemon's Inhibited property", () => {
    expect(inhibitedReading(true)).toMatchObject({ on: true, source: "Inhibited" });
    expect(inhibitedReading(false)).toMatchObject({ on: false });
  });

  it("Windows 11 Do not disturb (the toast switch)", () => {
    const out = (value: string) =>
      `\r\nHKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Notifications\\Settings\r\n    NOC_GLOBAL_SETTING_TOASTS_ENABLED    REG_DWORD    ${value}\r\n`;
    expect(readWindowsToasts(out("0x0"))).toMatchObject({ on: true, source: "Windows" });
    expect(readWindowsToasts(out("0x1"))).toMatchObject({ on: false });
    expect(readWindowsToasts("ERROR: not found")).toMatchObject({ on: undefined });
  });

  it("macOS Focus (Assertions.json)", () => {
    const on = { data: [{ storeAssertionRecords: [{ assertionDetails: {} }] }] };
    expect(readMacAssertions(JSON.stringify(on))).toMatchObject({ on: true });
    expect(readMacAssertions(JSON.stringify({ data: [{}] }))).toMatchObject({ on: false });
    expect(readMacAssertions("nope")).toMatchObject({ on: undefined });
  });

  it("macOS reads the file under the home folder; a missing one is unknown", async () => {
    const home = tempDir("mac-home");
    const signal = AbortSignal.timeout(10_000);
    const deps = { env: {}, platform: "darwin" as const, homedir: home };
    expect(await readDnd(deps, signal)).toMatchObject({ on: undefined, source: "macOS Focus" });
    const dir = join(home, "Library", "DoNotDisturb", "DB");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "Assertions.json"), '{"data":[{"storeAssertionRecords":[{}]}]}');
    expect(await readDnd(deps, signal)).toMatchObject({ on: true, detail: "macOS Focus is on" });
  });
});

describe.runIf(notificationDaemonTools().available)("Inhibited on a real bus", () => {
  it("a daemon without the property is unknown, and says so", async () => {
    const daemon = await startNotificationDaemon();
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...daemon.env };
    const reading = await readDnd(
      { env, platform: "linux", homedir: "/nonexistent" },
      AbortSignal.timeout(20_000),
    );
    expect(reading).toEqual({
      on: undefined,
      source: "Inhibited",
      detail: "the notification daemon has no Inhibited property",
    });
  }, 60_000);

  it("a daemon that has Inhibited (as KDE's does) and is inhibited: on", async () => {
    const daemon = await startNotificationDaemon();
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...daemon.env };
    const mock = ["call", "--session", "--dest", "org.freedesktop.Notifications"];
    execFileSync(
      "gdbus",
      [
        ...mock,
        "--object-path",
        "/org/freedesktop/Notifications",
        "--method",
        "org.freedesktop.DBus.Mock.AddProperty",
        "org.freedesktop.Notifications",
        "Inhibited",
        "<true>",
      ],
      { env, timeout: 20_000 },
    );
    const reading = await readDnd(
      { env, platform: "linux", homedir: "/nonexistent" },
      AbortSignal.timeout(20_000),
    );
    expect(reading).toMatchObject({ on: true, source: "Inhibited" });
  }, 60_000);
});

// The worker's banner does not wait for a read: it uses a kept reading, refreshed in the
// background, on its kept D-Bus connection. An in-process bus counts the property's reads.
describe.runIf(process.platform === "linux")("the worker's kept reading", () => {
  async function desktop(inhibited: boolean | undefined) {
    const bus = await fakeNotificationBus(inhibited === undefined ? {} : { inhibited });
    onTestFinished(() => bus.stop());
    const home = tempDir("dnd-home");
    return { env: { PATH: process.env.PATH ?? "", ...bus.env }, bus, home };
  }

  it("the worker reads once and answers from it; a hook or doctor reads every time", async () => {
    const { env, bus, home } = await desktop(true);
    const signal = AbortSignal.timeout(10_000);
    const worker = { env, platform: "linux" as const, homedir: home, worker: true };
    expect(await readDnd(worker, signal)).toMatchObject({ on: true, source: "Inhibited" });
    expect(await readDnd(worker, signal)).toMatchObject({ on: true, source: "Inhibited" });
    expect(bus.inhibitedReads()).toBe(1);
    const hook = { env, platform: "linux" as const, homedir: home };
    bus.setInhibited(false);
    expect(await readDnd(hook, signal)).toMatchObject({ on: false, source: "Inhibited" });
    await readDnd(hook, signal);
    expect(bus.inhibitedReads()).toBe(3);
  });

  it("keeps one reading per desktop: another bus is read for itself", async () => {
    const first = await desktop(true);
    const second = await desktop(false);
    const signal = AbortSignal.timeout(10_000);
    const deps = (env: NodeJS.ProcessEnv) => ({
      env,
      platform: "linux" as const,
      homedir: first.home,
      worker: true,
    });
    expect(await readDnd(deps(first.env), signal)).toMatchObject({ on: true });
    expect(await readDnd(deps(second.env), signal)).toMatchObject({ on: false });
    expect([first.bus.inhibitedReads(), second.bus.inhibitedReads()]).toEqual([1, 1]);
  });

  it("a daemon without the property, or no bus at all: unknown, with the reason", async () => {
    const { env, home } = await desktop(undefined);
    const signal = AbortSignal.timeout(10_000);
    expect(await readDnd({ env, platform: "linux", homedir: home }, signal)).toEqual({
      on: undefined,
      source: "Inhibited",
      detail: "the notification daemon has no Inhibited property",
    });
    const none = { PATH: "", DBUS_SESSION_BUS_ADDRESS: `unix:path=${home}/no-bus` };
    const reading = await readDnd({ env: none, platform: "linux", homedir: home }, signal);
    expect(reading).toMatchObject({ on: undefined, source: "Inhibited" });
    expect(reading.detail).toMatch(/^D-Bus: no D-Bus session bus here/);
  });
});
