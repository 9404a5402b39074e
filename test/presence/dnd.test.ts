import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  readDnd,
  readInhibited,
  readMacAssertions,
  readShowBanners,
  readWindowsToasts,
} from "../../src/presence/dnd.js";
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

  it("the daemon's Inhibited property through gdbus", () => {
    expect(readInhibited("(<true>,)\n")).toMatchObject({ on: true, source: "Inhibited" });
    expect(readInhibited("(<false>,)\n")).toMatchObject({ on: false });
    expect(readInhibited("(<uint32 1>,)")).toMatchObject({ on: undefined });
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

// The worker's banner does not wait for a program: it reads a kept reading, refreshed in the
// background. A stand-in gdbus (a real program on PATH) counts its runs and prints the property.
describe.runIf(process.platform === "linux")("the worker's kept reading", () => {
  function standIn() {
    const dir = tempDir("dnd-gdbus");
    const count = join(dir, "runs");
    const answer = join(dir, "answer");
    writeFileSync(answer, "(<true>,)\n");
    const program = join(dir, "gdbus");
    writeFileSync(program, `#!/bin/sh\necho run >> "${count}"\ncat "${answer}"\n`, { mode: 0o755 });
    const runs = () => (existsSync(count) ? readFileSync(count, "utf8").split("\n").length - 1 : 0);
    const env = {
      PATH: `${dir}:${process.env.PATH ?? ""}`,
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${dir}/bus`,
    };
    return { env, runs, home: dir };
  }

  it("the worker reads once and answers from it; a hook or doctor reads every time", async () => {
    const { env, runs, home } = standIn();
    const signal = AbortSignal.timeout(10_000);
    const worker = { env, platform: "linux" as const, homedir: home, worker: true };
    expect(await readDnd(worker, signal)).toMatchObject({ on: true, source: "Inhibited" });
    expect(await readDnd(worker, signal)).toMatchObject({ on: true, source: "Inhibited" });
    expect(runs()).toBe(1);
    const hook = { env, platform: "linux" as const, homedir: home };
    await readDnd(hook, signal);
    await readDnd(hook, signal);
    expect(runs()).toBe(3);
  });

  it("keeps one reading per desktop: another bus is read for itself", async () => {
    const first = standIn();
    const second = standIn();
    const signal = AbortSignal.timeout(10_000);
    const deps = (env: NodeJS.ProcessEnv) => ({
      env,
      platform: "linux" as const,
      homedir: first.home,
      worker: true,
    });
    await readDnd(deps(first.env), signal);
    await readDnd(deps(second.env), signal);
    expect([first.runs(), second.runs()]).toEqual([1, 1]);
  });
});
