import { describe, expect, it } from "vitest";
import { hasFailed, parseLog, selectRuns } from "../../src/journal/runs.js";

const run = (id: string, outcomes: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    time: "2026-11-23T10:00:00.000Z",
    ms: 5,
    id,
    outcomes,
    skipped: [],
    issues: [],
    ...extra,
  });
const queued = { sink: "hook", type: "webhook", target: "x", ok: true, queued: true, ms: 1 };
const sent = { sink: "desktop", type: "desktop", target: "notify-send", ok: true, ms: 3 };

describe("parseLog", () => {
  it("folds journal lines into the run whose notification they deliver; counts corrupt lines", () => {
    const text = [
      run("a", [sent, queued]),
      "not json",
      JSON.stringify({ time: "t", outbox: "retry", sink: "hook", id: "a", code: "SINK_TIMEOUT" }),
      run("b", [queued]),
      JSON.stringify({ time: "t", outbox: "failed", sink: "hook", id: "a", code: "SINK_TIMEOUT" }),
      JSON.stringify({ time: "t", outbox: "worker", pid: 1 }),
      "[1,2]",
      "",
    ].join("\n");
    const { runs, corrupt } = parseLog(text);
    expect(corrupt).toBe(2);
    expect(runs.map((r) => r.record.id)).toEqual(["a", "b"]);
    expect(runs[0]?.lines).toHaveLength(3);
    expect(runs[0]?.journal.get("hook")?.outbox).toBe("failed");
    expect(runs.map(hasFailed)).toEqual([true, false]);
  });

  it("joins receipts to their run, those written before the run's own line too", () => {
    const receipt = (state: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ time: "t", outbox: "receipt", sink: "desktop", id: "a", state, ...extra });
    const text = [
      receipt("shown", { messageId: "7" }),
      run("a", [sent]),
      receipt("closed", { messageId: "7", reason: "dismissed by the user" }),
    ].join("\n");
    const { runs, corrupt } = parseLog(text);
    expect(corrupt).toBe(0);
    expect(runs[0]?.lines).toHaveLength(3);
    expect(runs[0]?.receipts.get("desktop")?.map((line) => line.state)).toEqual([
      "shown",
      "closed",
    ]);
    expect(runs[0]?.journal.size).toBe(0);
  });

  it("a sink that failed counts as received when its fallback delivered", () => {
    const failedHook = (fallback: string[]) =>
      JSON.stringify({ time: "t", outbox: "failed", sink: "hook", id: "a", fallback });
    const byMail = (outbox: string) =>
      JSON.stringify({ time: "t", outbox, sink: "mail", id: "a", fallbackOf: "hook" });
    const rescued = parseLog(
      [run("a", [queued]), failedHook(["mail"]), byMail("delivered")].join("\n"),
    );
    expect(rescued.runs.map(hasFailed)).toEqual([false]);
    const lost = parseLog([run("a", [queued]), failedHook(["mail"]), byMail("failed")].join("\n"));
    expect(lost.runs.map(hasFailed)).toEqual([true]);
  });

  it("keeps only object items in a hand-edited record's lists", () => {
    const { runs } = parseLog(run("a", [null, 3, sent]));
    expect(runs[0]?.record.outcomes).toEqual([{ ...sent, outcome: "delivered" }]);
  });

  // Lines written before `outcome` existed say it by their flags; they read into the same union.
  const presence = { state: "present", probe: "tmux", detail: "pane active", ms: 4 };
  it.each([
    ["delivered", sent],
    ["queued", queued],
    ["coalesced", { ...queued, queued: undefined, held: true }],
    ["started", { ...sent, started: true }],
    ["skipped", { ...sent, skipped: "present: tmux: pane active", presence }],
    ["failed", { ...sent, ok: false, code: "SINK_UNAVAILABLE", error: "no notify-send" }],
  ])("reads an earlier version's %s item into the union", (outcome, item) => {
    const { runs } = parseLog(run("a", [item]));
    expect(runs[0]?.record.outcomes).toMatchObject([{ outcome, sink: item.sink, ok: item.ok }]);
  });
});

describe("selectRuns", () => {
  const { runs } = parseLog(
    [
      run("a", [sent]),
      run("b", [{ ...sent, ok: false, code: "SINK_FAILED" }]),
      run("c", [], { error: { code: "INPUT_INVALID", message: "x" } }),
      run("d", [sent]),
    ].join("\n"),
  );
  it.each([
    [{ tail: 2, failed: false }, ["c", "d"]],
    [{ tail: 0, failed: false }, ["a", "b", "c", "d"]],
    [{ tail: 20, failed: true }, ["b", "c"]],
    [{ tail: 1, failed: true }, ["c"]],
  ])("%j → %j", (options, ids) => {
    expect(selectRuns(runs, options).map((r) => r.record.id)).toEqual(ids);
  });
});
