import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundle } from "../helpers/bundle.js";
import { startHttpServer, type TestHttpServer } from "../helpers/http-server.js";
import { outboxEnv, type OutboxEnv } from "../helpers/outbox-env.js";
import { hold } from "../../src/delivery/coalesce-groups.js";
import { startWorker } from "../../src/link/spawn.js";
import { enqueue } from "../../src/outbox/store.js";
import { sampleNotification } from "../helpers/sample-notification.js";

// Real processes: the worker and a hook-like enqueuer, bundled from src like dist/ is.
let files: Record<string, string> = {};
let cleanup = (): Promise<void> => Promise.resolve();
beforeAll(async () => {
  ({ files, cleanup } = await bundle({
    worker: "src/worker/worker-main.ts",
    enqueue: "test/fixtures/outbox/enqueue.ts",
  }));
}, 30_000);
afterAll(() => cleanup());

function run(file: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [file, ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; out: string }>((resolve) =>
    child.on("close", (code) => {
      resolve({ code, out });
    }),
  );
  return { child, exited };
}

async function webhookBox(
  replies: Parameters<typeof startHttpServer>[0],
): Promise<{ server: TestHttpServer; box: OutboxEnv }> {
  const server = await startHttpServer(replies);
  const box = await outboxEnv({ ops: { type: "webhook", url: `${server.url}/h` } });
  return { server, box };
}

// Detached workers outlive the hook process: wait until none holds the lock any more.
async function workersGone(box: OutboxEnv): Promise<void> {
  for (let i = 0; i < 100 && existsSync(box.paths.lock); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const receivedIds = (server: TestHttpServer) =>
  new Set(
    server.requests.map(
      (r) => (JSON.parse(r.body) as { data: { notificationId: string } }).data.notificationId,
    ),
  );

describe("outbox across processes", () => {
  it("100 concurrent hook processes enqueue 100 intact entries", async () => {
    const box = await outboxEnv({});
    const runs = Array.from(
      { length: 100 },
      (_, i) => run(files.enqueue!, [`p${i}`], box.env).exited,
    );
    const results = await Promise.all(runs);
    expect(results.every((r) => r.code === 0)).toBe(true);
    const entries = await box.files("pending");
    expect(new Set(entries.map((e) => (e.notification as { id: string }).id)).size).toBe(100);
    expect(await readdir(box.paths.tmp)).toEqual([]);
  }, 60_000);

  it("kill -9 of the worker at random moments loses nothing; resends keep the id", async () => {
    const { server, box } = await webhookBox([{ status: 200, delayMs: 80 }]);
    const ids: string[] = [];
    for (let round = 0; round < 50; round++) {
      for (const n of [0, 1]) {
        const id = `k${round}-${n}`;
        ids.push(id);
        await enqueue(box.deps, { notification: sampleNotification({ id }), sinkName: "ops" });
      }
      const { child, exited } = run(files.worker!, [], box.env);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 400));
      child.kill("SIGKILL");
      await exited;
    }
    const final = await run(files.worker!, [], box.env).exited;
    expect(final.code).toBe(0);
    expect([...receivedIds(server)].sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const hits = server.requests.filter((r) => r.body.includes(`"notificationId":"${id}"`));
      expect(new Set(hits.map((r) => r.headers["webhook-id"])).size).toBe(1);
    }
    expect(await box.files("pending")).toEqual([]);
  }, 90_000);

  it("kill -9 of the worker while it merges held SubagentStops: each session's parts arrive in one notification, same id on resends", async () => {
    const { server, box } = await webhookBox([{ status: 200, delayMs: 40 }]);
    const sessions: Record<string, string[]> = {};
    for (let round = 0; round < 30; round++) {
      const sessionId = `s${round}`;
      sessions[sessionId] = [0, 1, 2].map((n) => `c${round}-${n}`);
      for (const id of sessions[sessionId]) {
        const notification = sampleNotification({
          id,
          sessionId,
          event: "SubagentStop",
          failure: false,
          level: "done",
          agentType: `agent-${id}`,
        });
        await hold(box.deps, { notification, sinkName: "ops", holdMs: 0, maxBodyLength: 300 });
      }
      const { child, exited } = run(files.worker!, [], box.env);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 300));
      child.kill("SIGKILL");
      await exited;
    }
    const final = await run(files.worker!, [], box.env).exited;
    expect(final.code).toBe(0);
    type Merged = {
      data: { notificationId: string; session: { id: string }; coalesced?: { id: string }[] };
    };
    const bodies = server.requests.map((r) => ({ r, body: JSON.parse(r.body) as Merged }));
    for (const [sessionId, parts] of Object.entries(sessions)) {
      const mine = bodies.filter(({ body }) => body.data.session.id === sessionId);
      expect(mine.length).toBeGreaterThanOrEqual(1); // at least once
      expect(new Set(mine.map(({ body }) => body.data.notificationId)).size).toBe(1);
      expect(new Set(mine.map(({ r }) => r.headers["webhook-id"])).size).toBe(1);
      expect(mine[0]?.body.data.coalesced?.map((p) => p.id)).toEqual(parts);
    }
    expect(await box.files("pending")).toEqual([]);
    expect(await readdir(box.paths.held)).toEqual([]);
  }, 90_000);

  it("a worker sleeping on a Retry-After of 60 s still delivers a new entry at once", async () => {
    const slow = await startHttpServer([{ status: 429, headers: { "retry-after": "60" } }]);
    const fast = await startHttpServer([{ status: 200 }]);
    const box = await outboxEnv({
      slow: { type: "webhook", url: `${slow.url}/s` },
      ops: { type: "webhook", url: `${fast.url}/o` },
    });
    await enqueue(box.deps, {
      notification: sampleNotification({ id: "first" }),
      sinkName: "slow",
    });
    const worker = run(files.worker!, [], box.env);
    await slow.waitForRequests(1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the worker is asleep now
    // What a hook does: it queues, then asks whether a worker lives; that question wakes it, and
    // no second worker is started.
    await enqueue(box.deps, {
      notification: sampleNotification({ id: "second" }),
      sinkName: "ops",
    });
    expect(await startWorker(box.deps, { workerFile: files.worker! })).toBe("running");
    await fast.waitForRequests(1, 5_000); // not 60 s later
    expect(receivedIds(fast)).toEqual(new Set(["second"]));
    expect(slow.requests).toHaveLength(1); // Retry-After is still honoured
    worker.child.kill("SIGTERM");
    await worker.exited;
  }, 30_000);

  it("a hook process enqueues and starts the worker in a few ms; the worker delivers", async () => {
    const { server, box } = await webhookBox([{ status: 200 }]);
    const { out, code } = await run(files.enqueue!, ["s1", "spawn"], {
      ...box.env,
      HN_WORKER_FILE: files.worker!,
    }).exited;
    expect(code).toBe(0);
    const timing = JSON.parse(out) as { totalMs: number; worker: string };
    expect(timing.worker).toBe("started");
    expect(timing.totalMs).toBeLessThan(1_000);
    await server.waitForRequests(1, 15_000);
    expect([...receivedIds(server)]).toEqual(["s1"]);
    await workersGone(box);
  }, 30_000);

  it("a burst of 20 hooks with workers delivers every notification", async () => {
    const { server, box } = await webhookBox([{ status: 200, delayMs: 20 }]);
    const env = { ...box.env, HN_WORKER_FILE: files.worker! };
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => run(files.enqueue!, [`b${i}`, "spawn"], env).exited),
    );
    await server.waitForRequests(20, 20_000);
    expect(receivedIds(server).size).toBe(20);
    await workersGone(box);
  }, 40_000);
});
