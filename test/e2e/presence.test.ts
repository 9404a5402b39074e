// "when": "away" end to end: the built binary in hook mode, the background worker asking a REAL
// tmux server whether the session's pane has the focus, and an in-process D-Bus that records each banner.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { fakeBin } from "../helpers/fake-bin.js";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";
import { hasTmux, startRealTmux } from "../helpers/real-tmux.js";
import { fixture, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";

const TMUX = hasTmux
  ? execFileSync("sh", ["-c", "command -v tmux"], { encoding: "utf8" }).trim()
  : "";

// The worker's journal line for the desktop sink of one notification, once it is written (not a
// receipt: the banner's "shown" comes with the daemon's reply, before the delivery's line).
async function workerLine(home: TempHome, id: unknown): Promise<Record<string, unknown>> {
  for (let i = 0; i < 300; i++) {
    const line = home
      .logLines()
      .find(
        (l) =>
          l.outbox !== undefined && l.outbox !== "receipt" && l.id === id && l.sink === "desktop",
      );
    if (line && line.outbox !== "retry") return line;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no worker line for ${String(id)} in 30 s`);
}

describe.runIf(hasTmux)('"when": "away" with a real tmux pane', () => {
  it("stays silent while the session's pane is focused and fires once it is not", async () => {
    const tmux = await startRealTmux();
    const bin = fakeBin([], { real: { tmux: TMUX } });
    const bus = await fakeNotificationBus();
    const home = tempHome({ ...bin.env, ...tmux.env, ...bus.env });
    home.writeConfig({ sinks: { desktop: { type: "desktop", when: "away" } } });

    const first = await runBin(["--timeout", "10"], {
      input: fixture("claude-code/Notification.json"),
      env: home.env,
    });
    expect(first).toMatchObject({ code: 0, stdout: "" });
    const hookLine = home.logLines().find((l) => l.event === "Notification");
    // The hook only queued it: no probe ran on the agent's clock.
    expect(hookLine?.outcomes).toEqual([
      expect.objectContaining({ sink: "desktop", queued: true }),
    ]);
    const skipped = await workerLine(home, hookLine?.id);
    expect(skipped).toMatchObject({
      outbox: "skipped",
      rule: "when: away",
      presence: { state: "present", probe: "tmux" },
    });
    expect(bus.calls()).toEqual([]);

    tmux.tmux("new-window", "-t", "agent"); // the agent's pane is no longer in the active window
    const second = await runBin(["--timeout", "10"], {
      input: fixture("claude-code/Stop.json"),
      env: home.env,
    });
    expect(second).toMatchObject({ code: 0, stdout: "" });
    const stopLine = home.logLines().find((l) => l.event === "Stop");
    const delivered = await workerLine(home, stopLine?.id);
    expect(delivered).toMatchObject({
      outbox: "delivered",
      presence: { state: "away", probe: "tmux" },
    });
    expect(bus.calls()).toHaveLength(1);

    const log = await runBin(["log"], { env: home.env });
    expect(log.stdout).toMatch(/skipped desktop: present \(tmux/);
    expect(log.stdout).toMatch(/desktop \(away: tmux/);
  });

  it("--dry-run shows the presence answer and the rule; the hook never probes", async () => {
    const tmux = await startRealTmux();
    const bin = fakeBin([], { real: { tmux: TMUX } });
    const home = tempHome({ ...bin.env, ...tmux.env });
    home.writeConfig({ sinks: { desktop: { type: "desktop", when: "away", idleSeconds: 600 } } });
    const result = await runBin(["--dry-run"], {
      input: fixture("claude-code/Stop.json"),
      env: home.env,
    });
    const line = JSON.parse(result.stdout.trim().split("\n")[0] ?? "{}") as Record<string, unknown>;
    expect(line).toMatchObject({
      sink: "desktop",
      rule: "when: away",
      wouldSend: false,
      presence: { state: "present", probe: "tmux" },
    });
  });
});
