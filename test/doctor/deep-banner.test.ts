import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { checkBannerDeep } from "../../src/doctor/deep-banner.js";
import {
  isNotificationDaemonAvailable,
  startNotificationDaemon,
} from "../helpers/notification-daemon.js";

const PATH = process.env.PATH ?? "/usr/bin:/bin";

describe.runIf(isNotificationDaemonAvailable())("doctor --deep: a real banner", () => {
  it("is shown by the daemon on a private D-Bus, which returns its id, then closed by that id", async () => {
    const daemon = await startNotificationDaemon();
    const result = await checkBannerDeep({ env: { PATH, ...daemon.env }, platform: "linux" });
    expect(result).toMatchObject({ status: "ok" });
    // The worker's listener heard the close; dbusmock answers CloseNotification with reason 1.
    expect(result.detail).toMatch(
      /^banner #1 shown by .+, then closed by its id; heard closed: expired$/,
    );
    expect(await daemon.calls()).toMatchObject([{ summary: "hook-notify doctor --deep" }]);
  });

  it("warns when the worker's listener cannot hear the close (no dbus-monitor)", async () => {
    const daemon = await startNotificationDaemon();
    const dir = mkdtempSync(join(tmpdir(), "hook-notify-deep-"));
    onTestFinished(() => {
      rmSync(dir, { recursive: true, force: true });
    });
    // A PATH without dbus-monitor: the banner itself needs no program.
    const result = await checkBannerDeep({ env: { PATH: dir, ...daemon.env }, platform: "linux" });
    expect(result).toMatchObject({ status: "warn" });
    expect(result.detail).toMatch(/did not hear it close \(dbus-monitor not found/);
    expect(result.fix).toContain("dbus-bin");
  });

  it("says plainly that the daemon accepted nothing when no daemon answers on the bus", async () => {
    const env = { PATH, DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/hook-notify-bus" };
    const result = await checkBannerDeep({ env, platform: "linux" });
    expect(result).toMatchObject({ status: "fail" });
    expect(result.detail).toMatch(/^the notification daemon accepted nothing \(.+\)$/);
    expect(result.fix).toContain("notification daemon");
  });
});

describe("doctor --deep elsewhere", () => {
  it.each(["darwin", "win32"] as const)("is not checked on %s", async (platform) => {
    const result = await checkBannerDeep({ env: { PATH }, platform });
    expect(result).toMatchObject({ status: "ok" });
    expect(result.detail).toContain("not checked");
  });
});
