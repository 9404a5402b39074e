// The whole way on Linux: a Notification hook from an agent in a real tmux pane, handed to the
// background worker by the built binary; the worker's own D-Bus connection shows the banner on a
// private bus (dbusmock's notification daemon, with "actions") and waits; the daemon emits
// ActionInvoked as a click does; the agent's pane is then the selected one. The hook itself waits
// for none of it.
// A banner the worker sends from the outbox (an away sink's) is followed the same way.
import { describe, expect, it } from "vitest";
import {
  notificationDaemonTools,
  startNotificationDaemon,
} from "../helpers/notification-daemon.js";
import { hasTmux, startRealTmux } from "../helpers/real-tmux.js";
import { fakeBin } from "../helpers/fake-bin.js";
import { fixture, runBin, tempHome } from "../helpers/run-bin.js";

const NOTIFICATION = fixture("claude-code/Notification.json");

async function until<T>(look: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const seen = look();
    if (seen !== undefined) return seen;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not seen in 60 s: ${what}`);
}

describe.runIf(process.platform === "linux" && notificationDaemonTools().available && hasTmux)(
  "click to focus through the hook and the worker",
  () => {
    it("a click on the worker's banner selects the agent's tmux pane", async () => {
      const daemon = await startNotificationDaemon(["body", "actions"]);
      const tmux = await startRealTmux();
      tmux.tmux("new-window", "-t", "agent");
      const active = () =>
        tmux.tmux("display-message", "-p", "-t", tmux.env.TMUX_PANE, "#{window_active}").trim();
      expect(active()).toBe("0");

      const home = tempHome({ PATH: process.env.PATH, ...daemon.env, ...tmux.env });
      home.writeConfig({ sinks: { desktop: { type: "desktop", focusSeconds: 120 } } });
      const result = await runBin(["--timeout", "60"], {
        input: NOTIFICATION,
        env: home.env,
        killAfterMs: 120_000,
      });
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: "" });

      const line = await until(
        () => home.logLines().find((entry) => entry.event === "Notification"),
        "the worker's log line",
      );
      expect(line.via).toBe("worker");
      expect(line.outcomes).toMatchObject([
        { sink: "desktop", ok: true, action: `click: tmux pane ${tmux.env.TMUX_PANE}` },
      ]);
      expect(await daemon.waitForCalls(1)).toHaveLength(1);

      await daemon.invokeAction(1, "default");
      await until(() => (active() === "1" ? true : undefined), "the pane's window selected");
      expect(active()).toBe("1");

      // The log's receipts: shown with the daemon's id, then the click and what it brought back.
      const clicked = await until(
        () =>
          home.logLines().find((entry) => entry.outbox === "receipt" && entry.state === "clicked"),
        "the click's receipt",
      );
      expect(clicked).toMatchObject({ sink: "desktop", id: line.id, messageId: "1" });
      expect(String(clicked.reason)).toContain(`tmux pane ${tmux.env.TMUX_PANE}`);
      expect(
        home.logLines().find((entry) => entry.outbox === "receipt" && entry.state === "shown"),
      ).toMatchObject({ sink: "desktop", messageId: "1" });
    }, 150_000);

    it("a banner from the outbox (an away sink) carries the click too, and the log says so", async () => {
      const daemon = await startNotificationDaemon(["body", "actions"]);
      const tmux = await startRealTmux();
      // The person is in another window: the agent's pane is not seen, so they are away.
      tmux.tmux("new-window", "-t", "agent");
      const active = () =>
        tmux.tmux("display-message", "-p", "-t", tmux.env.TMUX_PANE, "#{window_active}").trim();

      const home = tempHome({ PATH: process.env.PATH, ...daemon.env, ...tmux.env });
      home.writeConfig({
        sinks: { desktop: { type: "desktop", when: "away", focusSeconds: 120 } },
      });
      const result = await runBin(["--timeout", "60"], {
        input: NOTIFICATION,
        env: home.env,
        killAfterMs: 120_000,
      });
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: "" });
      const delivered = await until(
        () => home.logLines().find((l) => l.outbox === "delivered" && l.sink === "desktop"),
        "the worker's delivery from the outbox",
      );
      expect(delivered).toMatchObject({ presence: { state: "away" } });
      await until(
        () => home.logLines().find((l) => l.outbox === "receipt" && l.state === "shown"),
        "the shown receipt",
      );

      await daemon.invokeAction(1, "default");
      await until(() => (active() === "1" ? true : undefined), "the pane's window selected");
      const clicked = await until(
        () => home.logLines().find((l) => l.outbox === "receipt" && l.state === "clicked"),
        "the click's receipt",
      );
      expect(clicked).toMatchObject({ sink: "desktop", id: delivered.id, messageId: "1" });
      const table = await runBin(["log"], { env: home.env });
      expect(table.stdout).toContain(`shown #1, clicked: tmux pane ${tmux.env.TMUX_PANE} selected`);
    }, 150_000);

    it("outside tmux, a click focuses the exact zellij pane, kitty window and WezTerm pane (fakes record the argv)", async () => {
      const daemon = await startNotificationDaemon(["body", "actions"]);
      // kitty and WezTerm need a display and a GPU, zellij a terminal: fakes that log their argv
      // stand in for them, reached the whole real way (hook, worker, banner, daemon's click).
      const bin = fakeBin(["kitty", "wezterm", "zellij"]);
      const terminal = {
        KITTY_WINDOW_ID: "7",
        KITTY_LISTEN_ON: "unix:/tmp/kitty-4242",
        WEZTERM_PANE: "3",
        ZELLIJ: "0",
        ZELLIJ_SESSION_NAME: "bold-raccoon",
        ZELLIJ_PANE_ID: "4",
      };
      const home = tempHome({
        ...daemon.env,
        ...terminal,
        PATH: `${bin.dir}:${process.env.PATH ?? ""}`,
        FAKE_BIN_LOG: bin.env.FAKE_BIN_LOG,
      });
      home.writeConfig({ sinks: { desktop: { type: "desktop", focusSeconds: 120 } } });
      const result = await runBin(["--timeout", "60"], {
        input: NOTIFICATION,
        env: home.env,
        killAfterMs: 120_000,
      });
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: "" });
      const line = await until(
        () => home.logLines().find((entry) => entry.event === "Notification"),
        "the worker's log line",
      );
      expect(line.outcomes).toMatchObject([
        {
          sink: "desktop",
          ok: true,
          action: "click: zellij pane 4 and kitty window 7 and WezTerm pane 3",
        },
      ]);
      await daemon.waitForCalls(1);
      await daemon.invokeAction(1, "default");
      await until(
        () => (bin.calls().filter((c) => c.finished).length >= 3 ? true : undefined),
        "the three programs run",
      );
      expect(bin.calls().map((call) => [call.program, ...call.args])).toEqual([
        ["zellij", "--session", "bold-raccoon", "action", "focus-pane-id", "terminal_4"],
        ["kitty", "@", "--to", "unix:/tmp/kitty-4242", "focus-window", "--match", "id:7"],
        ["wezterm", "cli", "activate-pane", "--pane-id", "3"],
      ]);
    }, 150_000);
  },
);
