// A SubagentStop storm on the built binary: 200 hook processes at once against one outbox.
// Every run logs its line, every notification arrives exactly once with its own stable id, the
// outbox ends empty and intact, and only one worker drains (never more than 4 requests in flight).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { fixture, runBin, tempHome } from "../helpers/run-bin.js";

const HOOKS = 200;
const ANSWER_MS = 100;

describe("a burst of 200 concurrent hook processes", () => {
  it("loses nothing, doubles nothing, and drains with one worker", async () => {
    const server = await startHttpServer([{ status: 200, delayMs: ANSWER_MS }]);
    const home = tempHome();
    home.writeConfig({ sinks: { ops: { type: "webhook", url: `${server.url}/agent` } } });
    const events = Array.from({ length: HOOKS }, (_, i) =>
      fixture("claude-code/SubagentStop.json", { last_assistant_message: `subagent ${i} done` }),
    );
    const results = await Promise.all(
      events.map((input) =>
        runBin(["--timeout", "60"], { input, env: home.env, killAfterMs: 120_000 }),
      ),
    );
    expect(results.map((r) => r.code).filter((code) => code !== 0)).toEqual([]);
    expect(results.filter((r) => r.stdout !== "")).toEqual([]);

    await server.waitForRequests(HOOKS, 120_000);
    const lock = join(home.dir, "state", "hook-notify", "outbox", "worker.lock");
    for (let i = 0; i < 300 && existsSync(lock); i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500)); // a late duplicate would arrive now

    const ids = server.requests.map(
      (r) => (JSON.parse(r.body) as { data: { notificationId: string } }).data.notificationId,
    );
    expect(server.requests).toHaveLength(HOOKS);
    expect(new Set(ids).size).toBe(HOOKS);
    expect(new Set(server.requests.map((r) => r.headers["webhook-id"])).size).toBe(HOOKS);

    // One worker, 4 at a time: no 100 ms window ever holds more than 4 arrivals.
    const times = server.requests.map((r) => r.receivedAt).sort((a, b) => a - b);
    const busiest = Math.max(
      ...times.map((t, i) => times.slice(i).filter((u) => u < t + ANSWER_MS - 5).length),
    );
    expect(busiest).toBeLessThanOrEqual(4);

    const outbox = join(home.dir, "state", "hook-notify", "outbox");
    expect(readdirSync(join(outbox, "pending"))).toEqual([]);
    for (const dir of ["failed", "corrupt"]) {
      if (existsSync(join(outbox, dir))) expect(readdirSync(join(outbox, dir))).toEqual([]);
    }
    const runs = home.logLines().filter((line) => line.event === "SubagentStop");
    expect(runs).toHaveLength(HOOKS);
    const delivered = home.logLines().filter((line) => line.outbox === "delivered");
    expect(delivered).toHaveLength(HOOKS);
  }, 300_000);
});
