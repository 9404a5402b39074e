// The banner's click and close, end to end on Linux: notify-send (real) on a private bus whose
// daemon is dbusmock's notification_daemon (with "actions"), the worker's one dbus-monitor
// listening, the agent in a real tmux pane. The daemon emits ActionInvoked as a click does (the
// pane must then be the selected one) or NotificationClosed with a reason.
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import type { ReceiptEvent } from "../../src/core/receipt.js";
import type { Deps } from "../../src/deps.js";
import { MAX_FOLLOWED } from "../../src/sinks/banner-listener.js";
import { desktop } from "../../src/sinks/desktop.js";
import type { SendReport } from "../../src/sinks/sink.js";
import {
  notificationDaemonTools,
  startNotificationDaemon,
} from "../helpers/notification-daemon.js";
import { hasTmux, startRealTmux } from "../helpers/real-tmux.js";
import { sampleNotification, testDeps } from "../helpers/sample-notification.js";

const tools = notificationDaemonTools();
const attention = sampleNotification({
  event: "Notification",
  failure: false,
  level: "attention",
  title: "shop-api · Needs you",
  body: "Claude needs your permission to use Bash",
});

// The worker's way of sending: not waiting, following the banner for its click and close.
async function sendAsWorker(
  env: Record<string, string>,
  { worker = true, focusSeconds = 60, receipts = [] as ReceiptEvent[] } = {},
): Promise<SendReport> {
  const deps: Deps = { ...testDeps(env), platform: "linux", worker };
  const report = await desktop.send(attention, desktop.options.parse({ focusSeconds }), {
    signal: AbortSignal.timeout(20_000),
    deps,
    sinkName: "desk",
    wait: false,
    receipt: (event) => receipts.push(event),
  });
  return report ?? {};
}

describe.runIf(process.platform === "linux" && tools.available)(
  "an old notify-send without --action",
  () => {
    it("the banner is sent again without the action, and the log says why", async () => {
      const daemon = await startNotificationDaemon(["body", "actions"]);
      const dir = mkdtempSync(join(tmpdir(), "hook-notify-old-notify-send-"));
      onTestFinished(() => {
        rmSync(dir, { recursive: true, force: true });
      });
      const log = join(dir, "calls");
      // libnotify 0.7's answer to an option it does not know; otherwise it records its argv.
      writeFileSync(
        join(dir, "notify-send"),
        `#!/bin/sh\ncase "$*" in *--action*) echo "Unknown option --action=default=Focus" >&2; exit 1;; esac\necho "$@" >> "${log}"\n`,
        { mode: 0o755 },
      );
      const env = {
        PATH: `${dir}:/usr/bin:/bin`,
        ...daemon.env,
        TMUX: "/tmp/tmux-test/default,1,0",
        TMUX_PANE: "%1",
      };
      const report = await sendAsWorker(env);
      expect(report.action).toBe("none: this notify-send has no --action (libnotify 0.8 has it)");
      const calls = readFileSync(log, "utf8").trim().split("\n");
      expect(calls).toHaveLength(1);
      expect(calls[0]).not.toContain("--action");
    }, 60_000);
  },
);

describe.runIf(process.platform === "linux" && tools.available && hasTmux)(
  "click to focus with a real notification daemon and a real tmux server",
  () => {
    it("the banner's default action, invoked over D-Bus, selects the agent's tmux pane", async () => {
      const daemon = await startNotificationDaemon(["body", "actions"]);
      const tmux = await startRealTmux();
      // The person moved on to another window: the agent's pane is not the selected one.
      tmux.tmux("new-window", "-t", "agent");
      const active = () =>
        tmux.tmux("display-message", "-p", "-t", tmux.env.TMUX_PANE, "#{window_active}").trim();
      expect(active()).toBe("0");

      const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...daemon.env, ...tmux.env };
      const report = await sendAsWorker(env);
      expect(report.messageId).toBe("1");
      expect(report.action).toBe(`click: tmux pane ${tmux.env.TMUX_PANE}`);
      expect(report.closed).toBeDefined();

      await daemon.invokeAction(1, "default");
      const end = await report.closed;
      expect(end).toMatchObject({ ended: "clicked", id: "1" });
      expect(end?.reason).toContain(`tmux pane ${tmux.env.TMUX_PANE} selected`);
      expect(active()).toBe("1");
      // The Notify call carried the action; its text is only an argument.
      expect(await daemon.calls()).toMatchObject([{ summary: attention.title }]);
    }, 60_000);

    it("a daemon without actions still shows the banner, and the log says why there is none", async () => {
      const daemon = await startNotificationDaemon();
      const tmux = await startRealTmux();
      const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...daemon.env, ...tmux.env };
      const report = await sendAsWorker(env);
      expect(report.action).toBe("none: the notification daemon does not support actions");
      expect(await daemon.waitForCalls(1)).toMatchObject([{ summary: attention.title }]);
    }, 60_000);

    it.each([
      ["dismissed by the person", 2, "dismissed", false],
      ["expired", 1, "expired", false],
      ["closed by a program", 3, "closed by a program", false],
      // GNOME Shell and dunst send it only to the banner's sender, here one that is gone.
      ["dismissed, told only to a gone sender", 2, "dismissed", true],
    ])(
      "the close reason: %s",
      async (_what, reason, words, unicast) => {
        const daemon = await startNotificationDaemon(["body", "actions"]);
        const tmux = await startRealTmux();
        const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...daemon.env, ...tmux.env };
        const report = await sendAsWorker(env);
        expect(report.messageId).toBe("1");
        await daemon.closeNotification(1, reason, unicast ? ":1.999" : undefined);
        expect(await report.closed).toEqual({ ended: "closed", id: "1", reason: words });
      },
      60_000,
    );

    it("a banner without an action is followed for its close too", async () => {
      const daemon = await startNotificationDaemon();
      const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...daemon.env };
      // Outside tmux and any window: no place to bring back, so no action.
      const report = await sendAsWorker(env);
      expect(report.action).toMatch(/^none: /);
      await daemon.closeNotification(1, 2);
      expect(await report.closed).toEqual({ ended: "closed", id: "1", reason: "dismissed" });
    }, 60_000);

    it("following is bounded: after focusSeconds the log says the reason is unknown", async () => {
      const daemon = await startNotificationDaemon(["body", "actions"]);
      const tmux = await startRealTmux();
      const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...daemon.env, ...tmux.env };
      const report = await sendAsWorker(env, { focusSeconds: 1 });
      expect(report.action).toMatch(/^click: /);
      expect(await report.closed).toEqual({
        ended: "unknown",
        id: "1",
        reason: "not closed within 1 s",
      });
    }, 60_000);

    it(`follows ${String(MAX_FOLLOWED)} banners at most: the next ends the oldest one's following`, async () => {
      const daemon = await startNotificationDaemon(["body", "actions"]);
      const tmux = await startRealTmux();
      const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...daemon.env, ...tmux.env };
      const reports: SendReport[] = [];
      for (let i = 0; i <= MAX_FOLLOWED; i++) reports.push(await sendAsWorker(env));
      expect(await reports[0]?.closed).toMatchObject({ ended: "unknown", id: "1" });
      // The others are still followed; a click on the newest is still carried out.
      const newest = reports.at(-1);
      await daemon.invokeAction(Number(newest?.messageId), "default");
      expect(await newest?.closed).toMatchObject({ ended: "clicked" });
      for (const report of reports.slice(1, -1))
        await daemon.closeNotification(Number(report.messageId), 2);
      for (const report of reports.slice(1, -1))
        expect(await report.closed).toMatchObject({ ended: "closed", reason: "dismissed" });
    }, 120_000);

    it("without dbus-monitor the banner goes without an action, and the log says why", async () => {
      const daemon = await startNotificationDaemon(["body", "actions"]);
      const tmux = await startRealTmux();
      const dir = mkdtempSync(join(tmpdir(), "hook-notify-no-monitor-"));
      onTestFinished(() => {
        rmSync(dir, { recursive: true, force: true });
      });
      for (const program of ["notify-send", "stdbuf"])
        symlinkSync(`/usr/bin/${program}`, join(dir, program));
      const receipts: ReceiptEvent[] = [];
      const env = { PATH: dir, ...daemon.env, ...tmux.env };
      const report = await sendAsWorker(env, { receipts });
      expect(report.action).toMatch(/^none: dbus-monitor not found/);
      expect(receipts.map((event) => event.state)).toEqual(["shown", "unknown"]);
      expect(receipts[1]?.reason).toMatch(/^dbus-monitor not found/);
    }, 60_000);

    it("outside the worker (the hook, test) the banner carries no action and says why", async () => {
      const daemon = await startNotificationDaemon(["body", "actions"]);
      const tmux = await startRealTmux();
      const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...daemon.env, ...tmux.env };
      const report = await sendAsWorker(env, { worker: false });
      expect(report.action).toMatch(/^none: only the background worker listens/);
      expect(report.closed).toBeUndefined();
      expect(await daemon.waitForCalls(1)).toHaveLength(1);
    }, 60_000);
  },
);
