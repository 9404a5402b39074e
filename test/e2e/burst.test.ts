// A SubagentStop storm on the built binary: 200 hook processes at once against one outbox, from
// 4 sessions of 45 subagents each, every fifth event sent twice (as clients sometimes do). Every
// run logs its line; the duplicates are dropped; a sink with coalescing off gets each subagent
// exactly once with its own id; the coalescing sink gets a few merged notifications whose parts
// are each subagent exactly once; the outbox ends empty and intact; only one worker drains
// (never more than 4 requests in flight).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { fixture, runBin, tempHome } from "../helpers/run-bin.js";

const SESSIONS = 4;
const DISTINCT = 45; // per session; plus 5 duplicates = 50 per session, 200 in all
const ANSWER_MS = 100;

interface Body {
  data: { notificationId: string; session: { id: string }; coalesced?: { id: string }[] };
}

describe("a burst of 200 concurrent hook processes", () => {
  it("loses nothing, doubles nothing, coalesces per session and drains with one worker", async () => {
    const server = await startHttpServer([{ status: 200, delayMs: ANSWER_MS }]);
    const home = tempHome();
    home.writeConfig({
      // A wide window: under load the storm's hooks of one session may start seconds apart.
      coalesceSeconds: 10,
      sinks: {
        merged: { type: "webhook", url: `${server.url}/merged` },
        each: { type: "webhook", url: `${server.url}/each`, coalesceSeconds: 0 },
      },
    });
    const events = Array.from({ length: SESSIONS }, (_, s) => {
      const distinct = Array.from({ length: DISTINCT }, (_, i) =>
        fixture("claude-code/SubagentStop.json", {
          session_id: `storm-${String(s)}`,
          agent_id: `agent-${String(s)}-${String(i)}`,
          agent_type: i % 2 ? "Explore" : "general-purpose",
          last_assistant_message: `subagent ${String(i)} of session ${String(s)} done`,
        }),
      );
      return [...distinct, ...distinct.filter((_, i) => i % 9 === 0)];
    }).flat();
    expect(events).toHaveLength(200);
    const results = await Promise.all(
      events.map((input) =>
        runBin(["--timeout", "60"], { input, env: home.env, killAfterMs: 120_000 }),
      ),
    );
    expect(results.map((r) => r.code).filter((code) => code !== 0)).toEqual([]);
    expect(results.filter((r) => r.stdout !== "")).toEqual([]);

    const distinct = SESSIONS * DISTINCT;
    const each = () => server.requests.filter((r) => r.url.endsWith("/each"));
    const merged = () => server.requests.filter((r) => r.url.endsWith("/merged"));
    for (let i = 0; i < 1200 && (each().length < distinct || merged().length < SESSIONS); i++)
      await new Promise((r) => setTimeout(r, 100));
    const lock = join(home.dir, "state", "hook-notify", "outbox", "worker.lock");
    for (let i = 0; i < 900 && existsSync(lock); i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500)); // a late duplicate would arrive now

    // The sink without coalescing: each distinct subagent once, with its own stable id.
    const eachIds = each().map((r) => (JSON.parse(r.body) as Body).data.notificationId);
    expect(eachIds).toHaveLength(distinct);
    expect(new Set(eachIds).size).toBe(distinct);
    expect(new Set(each().map((r) => r.headers["webhook-id"])).size).toBe(distinct);

    // The coalescing sink: per session a few notifications (one unless the storm outlasted the
    // 60 s cap), whose parts are that session's subagents, each exactly once.
    const bodies = merged().map((r) => JSON.parse(r.body) as Body);
    expect(bodies.length).toBeGreaterThanOrEqual(SESSIONS);
    expect(bodies.length).toBeLessThanOrEqual(SESSIONS * 4);
    for (let s = 0; s < SESSIONS; s++) {
      const mine = bodies.filter((b) => b.data.session.id === `storm-${String(s)}`);
      const parts = mine.flatMap(
        (b) => b.data.coalesced?.map((p) => p.id) ?? [b.data.notificationId],
      );
      expect(parts).toHaveLength(DISTINCT);
      expect(new Set(parts).size).toBe(DISTINCT);
    }
    // One worker, 4 at a time: no 100 ms window ever holds more than 4 arrivals.
    const times = server.requests.map((r) => r.receivedAt).sort((a, b) => a - b);
    const busiest = Math.max(
      ...times.map((t, i) => times.slice(i).filter((u) => u < t + ANSWER_MS - 5).length),
    );
    expect(busiest).toBeLessThanOrEqual(4);

    const outbox = join(home.dir, "state", "hook-notify", "outbox");
    for (const dir of ["pending", "held"]) expect(readdirSync(join(outbox, dir))).toEqual([]);
    for (const dir of ["failed", "corrupt"]) {
      if (existsSync(join(outbox, dir))) expect(readdirSync(join(outbox, dir))).toEqual([]);
    }
    const runs = home.logLines().filter((line) => line.event === "SubagentStop");
    expect(runs).toHaveLength(200);
    const dropped = runs.filter((line) =>
      (line.skipped as { rule?: string }[]).some((skip) => skip.rule === "dedupe"),
    );
    expect(dropped).toHaveLength(200 - distinct);
    const delivered = home.logLines().filter((line) => line.outbox === "delivered");
    expect(delivered).toHaveLength(distinct + bodies.length);
  }, 300_000);
});
