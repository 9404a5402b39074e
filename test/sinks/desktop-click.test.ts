// The banner's click, end to end on Linux: notify-send (real) on a private bus whose daemon is
// dbusmock's notification_daemon with "actions", the agent in a real tmux pane. The daemon emits
// ActionInvoked as a click does; the pane must then be the selected one.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import type { Deps } from "../../src/deps.js";
import { MAX_LISTENING } from "../../src/sinks/desktop-click.js";
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

// The worker's way of sending: not waiting, allowed to keep notify-send for the click.
async function sendAsWorker(
  env: Record<string, string>,
  { worker = true, focusSeconds = 60 } = {},
): Promise<SendReport> {
  const deps: Deps = { ...testDeps(env), platform: "linux", worker };
  const report = await desktop.send(attention, desktop.options.parse({ focusSeconds }), {
    signal: AbortSignal.timeout(20_000),
    deps,
    sinkName: "desk",
    wait: false,
  });
  return report ?? {};
}

describe.runIf(process.platform === "linux")("an old notify-send without --action", () => {
  it("the banner is sent again without the action, and the log says why", async () => {
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
      DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/bus",
      TMUX: "/tmp/tmux-test/default,1,0",
      TMUX_PANE: "%1",
    };
    const report = await sendAsWorker(env);
    expect(report.action).toBe("none: this notify-send has no --action (libnotify 0.8 has it)");
    const calls = readFileSync(log, "utf8").trim().split("\n");
    expect(calls).toHaveLength(1);
    expect(calls[0]).not.toContain("--action");
  }, 60_000);
});

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
      expect(end).toMatchObject({ ended: "closed", action: "default" });
      expect(end?.focused).toContain(`tmux pane ${tmux.env.TMUX_PANE} selected`);
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

    it("the wait for a click is bounded: notify-send is stopped after focusSeconds", async () => {
      const daemon = await startNotificationDaemon(["body", "actions"]);
      const tmux = await startRealTmux();
      const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...daemon.env, ...tmux.env };
      const report = await sendAsWorker(env, { focusSeconds: 1 });
      expect(report.action).toMatch(/^click: /);
      expect(await report.closed).toMatchObject({ ended: "bound" });
    }, 60_000);

    it(`listens to ${String(MAX_LISTENING)} banners at most: the next stops the oldest listener`, async () => {
      const daemon = await startNotificationDaemon(["body", "actions"]);
      const tmux = await startRealTmux();
      const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...daemon.env, ...tmux.env };
      const reports: SendReport[] = [];
      for (let i = 0; i <= MAX_LISTENING; i++) reports.push(await sendAsWorker(env));
      expect(await reports[0]?.closed).toMatchObject({ ended: "bound" });
      // The others still listen; a click on the newest is still carried out.
      const newest = reports.at(-1);
      await daemon.invokeAction(Number(newest?.messageId), "default");
      expect(await newest?.closed).toMatchObject({ ended: "closed", action: "default" });
      for (const report of reports.slice(1, -1))
        await daemon.invokeAction(Number(report.messageId), "x");
    }, 120_000);

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
