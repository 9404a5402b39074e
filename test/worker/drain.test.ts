import { readFile } from "node:fs/promises";
import { describe, expect, it, onTestFinished } from "vitest";
import { logPath } from "../../src/config/paths.js";
import { enqueue } from "../../src/outbox/store.js";
import { drain, type DrainOptions } from "../../src/worker/drain.js";
import { createPendingIndex } from "../../src/worker/pending-index.js";
import { startHttpServer, type Reply } from "../helpers/http-server.js";
import { outboxEnv } from "../helpers/outbox-env.js";
import { sampleNotification } from "../helpers/sample-notification.js";

const URL_TOKEN = "URLTOKEN-do-not-leak-5150";
const HEADER_TOKEN = "HEADERTOKEN-do-not-leak-8086";
const SECRET = `whsec_${Buffer.from("SIGNING-KEY-do-not-leak-123456789").toString("base64")}`;
const fast: DrainOptions = { policy: { baseMs: 20, minMs: 10, capMs: 50 }, random: () => 1 };

async function setup(replies: Reply[]) {
  const server = await startHttpServer(replies);
  const box = await outboxEnv({
    ops: {
      type: "webhook",
      url: `${server.url}/h/${URL_TOKEN}`,
      secret: SECRET,
      headers: { authorization: HEADER_TOKEN },
    },
  });
  return { server, box };
}

// Drains until nothing is pending (sleeping to each notBefore), at most `rounds` passes.
async function drainAll(box: Awaited<ReturnType<typeof outboxEnv>>, rounds = 10) {
  for (let i = 0; i < rounds; i++) {
    const summary = await drain(box.deps, fast);
    if (summary.remaining === 0) return;
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max((summary.nextDueAt ?? 0) - Date.now(), 0) + 5),
    );
  }
}

describe("drain", () => {
  it("delivers a pending entry and removes it", async () => {
    const { server, box } = await setup([{ status: 200 }]);
    await enqueue(box.deps, { notification: sampleNotification(), sinkName: "ops" });
    const summary = await drain(box.deps, fast);
    expect(summary).toMatchObject({ delivered: 1, failed: 0, remaining: 0 });
    expect(server.requests).toHaveLength(1);
    expect(await box.files("pending")).toEqual([]);
  });

  it("a server that fails 3 times then recovers gets one logical notification (same id)", async () => {
    const { server, box } = await setup([
      { status: 500 },
      { reset: true },
      { status: 503 },
      { status: 200 },
    ]);
    await enqueue(box.deps, { notification: sampleNotification(), sinkName: "ops" });
    await drainAll(box);
    expect(server.requests).toHaveLength(4);
    const ids = new Set(server.requests.map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    expect(new Set(server.requests.map((r) => r.body)).size).toBe(1);
    expect(await box.files("pending")).toEqual([]);
  });

  it("waits for Retry-After before the next attempt", async () => {
    const { server, box } = await setup([{ status: 429, headers: { "retry-after": "120" } }]);
    await enqueue(box.deps, { notification: sampleNotification(), sinkName: "ops" });
    const started = Date.now();
    const summary = await drain(box.deps, fast);
    expect(summary).toMatchObject({ retrying: 1, remaining: 1 });
    expect(summary.nextDueAt).toBeGreaterThanOrEqual(started + 120_000);
    expect(await drain(box.deps, fast)).toMatchObject({ delivered: 0, retrying: 0, remaining: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it("does not retry a 404: the entry moves to failed/ with the reason, and it is logged", async () => {
    const { server, box } = await setup([{ status: 404, body: "Unknown Webhook" }]);
    await enqueue(box.deps, { notification: sampleNotification(), sinkName: "ops" });
    expect(await drain(box.deps, fast)).toMatchObject({ failed: 1, remaining: 0 });
    expect(server.requests).toHaveLength(1);
    const [failed] = await box.files("failed");
    expect(failed).toMatchObject({
      sinkName: "ops",
      attempts: 1,
      failure: { reason: expect.stringContaining("404") as string },
    });
    const log = await readFile(logPath(box.deps), "utf8");
    expect(log).toContain('"outbox":"failed"');
  });

  it("gives up on entries older than maxAgeMs without sending", async () => {
    const { server, box } = await setup([{ status: 200 }]);
    await enqueue(
      { ...box.deps, now: () => Date.now() - 10_000 },
      { notification: sampleNotification(), sinkName: "ops" },
    );
    expect(await drain(box.deps, { ...fast, maxAgeMs: 5_000 })).toMatchObject({ failed: 1 });
    expect(server.requests).toHaveLength(0);
  });

  it("drops an entry whose sink left the config (failed/, not retried)", async () => {
    const { box } = await setup([]);
    await enqueue(box.deps, { notification: sampleNotification(), sinkName: "gone" });
    expect(await drain(box.deps, fast)).toMatchObject({ failed: 1, remaining: 0 });
    expect(await box.files("failed")).toHaveLength(1);
  });

  it("quarantines a corrupt file and still delivers the others", async () => {
    const { server, box } = await setup([{ status: 200 }]);
    await enqueue(box.deps, { notification: sampleNotification(), sinkName: "ops" });
    const { writeFile } = await import("node:fs/promises");
    await writeFile(`${box.paths.pending}/broken.json`, '{"version":1,"key":"bro');
    expect(await drain(box.deps, fast)).toMatchObject({
      delivered: 1,
      quarantined: 1,
      remaining: 0,
    });
    expect(server.requests).toHaveLength(1);
  });

  it("delivers many entries with bounded concurrency", async () => {
    const { server, box } = await setup([{ status: 200, delayMs: 30 }]);
    for (let i = 0; i < 12; i++) {
      await enqueue(box.deps, {
        notification: sampleNotification({ id: `n${i}` }),
        sinkName: "ops",
      });
    }
    expect(await drain(box.deps, { ...fast, concurrency: 3 })).toMatchObject({
      delivered: 12,
      remaining: 0,
    });
    expect(new Set(server.requests.map((r) => r.headers["webhook-id"])).size).toBe(12);
  });

  it("a receiver that is down gets one probe per drain; the rest wait for it, in one log line", async () => {
    const { server, box } = await setup([{ status: 503 }]);
    for (let i = 0; i < 6; i++)
      await enqueue(box.deps, {
        notification: sampleNotification({ id: `d${i}` }),
        sinkName: "ops",
      });
    expect(await drain(box.deps, { ...fast, concurrency: 3 })).toMatchObject({
      retrying: 6,
      remaining: 6,
    });
    expect(server.requests).toHaveLength(1);
    const lines = (await readFile(logPath(box.deps), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { outbox: string; message?: string; count?: number });
    expect(lines.filter((l) => l.outbox === "retry")).toHaveLength(1);
    expect(lines.filter((l) => l.outbox === "waiting")).toMatchObject([
      { count: 5, message: expect.stringMatching(/^5 waiting for ops: /) as unknown },
    ]);
    // Each waits until after the probe's next try, then the next drain probes again first.
    const pending = await box.files("pending");
    const probe = pending.find((e) => e.attempts === 1);
    for (const entry of pending)
      expect(entry.notBefore as number).toBeGreaterThanOrEqual(probe?.notBefore as number);
  });

  it("with the worker's index: the same outcomes, and a down target's entries wait behind its probe", async () => {
    const { server, box } = await setup([{ status: 503 }, { status: 200 }]);
    const index = createPendingIndex(box.paths);
    onTestFinished(() => {
      index.close();
    });
    const downUntil = new Map<string, number>();
    for (let i = 0; i < 4; i++)
      await enqueue(box.deps, {
        notification: sampleNotification({ id: `i${i}` }),
        sinkName: "ops",
      });
    const first = await drain(box.deps, { ...fast, index, downUntil });
    expect(first).toMatchObject({ retrying: 4, remaining: 4 });
    expect(server.requests).toHaveLength(1);
    // Nothing is due before the probe's next try, whatever the clock of each entry says.
    expect(first.nextDueAt).toBe(downUntil.values().next().value);
    await new Promise((resolve) => setTimeout(resolve, (first.nextDueAt ?? 0) - Date.now() + 5));
    expect(await drain(box.deps, { ...fast, index, downUntil })).toMatchObject({
      delivered: 4,
      remaining: 0,
    });
    expect(await box.files("pending")).toEqual([]);
  });

  it("never writes a secret to the outbox, the failed folder or the log", async () => {
    const { box } = await setup([
      { status: 500, body: `echo ${URL_TOKEN}` },
      { status: 401, body: HEADER_TOKEN },
    ]);
    await enqueue(box.deps, { notification: sampleNotification(), sinkName: "ops" });
    await drainAll(box);
    const everything = await box.everything();
    expect(everything).toContain("ops");
    for (const secret of [URL_TOKEN, HEADER_TOKEN, SECRET])
      expect(everything).not.toContain(secret);
  });
});
