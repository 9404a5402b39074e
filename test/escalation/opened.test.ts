// Unacknowledged re-notify: a follow-up is cancelled once a sink reported the notification it
// chases as clicked or acknowledged (a receipt), with real marker files; and it is skipped while
// a REAL tmux server says the session's pane is in front (presence respected), sent once not.
import { describe, expect, it } from "vitest";
import { hasTmux, startRealTmux } from "../helpers/real-tmux.js";
import { followUp } from "../../src/escalation/plan.js";
import { sessionKey } from "../../src/escalation/answers.js";
import { checkGate } from "../../src/delivery/presence-gate.js";
import { receiptRecorder } from "../../src/delivery/receipts.js";
import { newEntry } from "../../src/outbox/store.js";
import { outboxEnv } from "../helpers/outbox-env.js";
import { sampleNotification } from "../helpers/sample-notification.js";

async function pendingFollowUp(since: number) {
  const box = await outboxEnv(
    { ops: { type: "webhook", url: "http://127.0.0.1:9/x" } },
    () => since + 5000,
  );
  const original = sampleNotification({ id: "n-opened" });
  const entry = newEntry(
    {
      notification: followUp(original, 300),
      sinkName: "ops",
      escalation: { session: sessionKey(original.sessionId ?? ""), since, cancelOn: "prompt" },
    },
    since,
  );
  return { box, entry, original };
}

describe("a follow-up and the receipts of the notification it chases", () => {
  it("is cancelled once the notification was clicked", async () => {
    const { box, entry, original } = await pendingFollowUp(1_000_000);
    const receipts = receiptRecorder(box.deps, { sink: "desktop", id: original.id }, []);
    receipts.report({ state: "clicked", reason: "default" });
    expect(await checkGate(entry, box.deps, new Map())).toMatchObject({
      send: false,
      outcome: "cancelled",
      rule: "escalate",
      message: expect.stringContaining("the notification was opened") as unknown,
    });
  });

  it("still goes when it was only shown or closed, or another notification was clicked", async () => {
    const { box, entry, original } = await pendingFollowUp(1_000_000);
    const receipts = receiptRecorder(box.deps, { sink: "desktop", id: original.id }, []);
    receipts.report({ state: "shown", id: "7" });
    receipts.report({ state: "closed", reason: "expired" });
    receiptRecorder(box.deps, { sink: "desktop", id: "n-other" }, []).report({ state: "clicked" });
    expect(await checkGate(entry, box.deps, new Map())).toEqual({ send: true });
  });
});

describe.runIf(hasTmux)("a follow-up and presence (real tmux)", () => {
  it("is skipped while the session's pane is in front, and goes once it is not", async () => {
    const tmux = await startRealTmux();
    const { box, entry } = await pendingFollowUp(1_000_000);
    const presence = {
      idleSeconds: 3600,
      pids: [process.pid],
      env: { ...tmux.env, PATH: "/usr/local/bin:/usr/bin:/bin" },
    };
    const gated = { ...entry, presence };
    expect(await checkGate(gated, box.deps, new Map())).toMatchObject({
      send: false,
      outcome: "skipped",
      rule: "escalate",
      presence: { state: "present", probe: "tmux" },
    });
    tmux.tmux("new-window", "-t", "agent");
    expect(await checkGate(gated, box.deps, new Map())).toMatchObject({
      send: true,
      presence: { state: "away", probe: "tmux" },
    });
  });
});
