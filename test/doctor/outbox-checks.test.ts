// doctor's outbox line: a look at a sent message's receipt (a watch entry in pending/) is no
// undelivered notification, so it alone leaves the outbox "empty".
import { describe, expect, it } from "vitest";
import { STRANDED_AFTER_MS, checkEvents, checkOutbox } from "../../src/doctor/outbox-checks.js";
import { writeEvent } from "../../src/link/inbox.js";
import { enqueue } from "../../src/outbox/store.js";
import { outboxEnv } from "../helpers/outbox-env.js";
import { sampleNotification } from "../helpers/sample-notification.js";

describe("checkOutbox", () => {
  it("counts receipt watches apart from pending deliveries", async () => {
    const box = await outboxEnv({});
    const notification = sampleNotification();
    const watch = { messageId: "rLqz8Wc3o4Vy7ZxjFf4pNbH2sdDkXa", everyMs: 60_000, untilMs: 0 };
    await enqueue(box.deps, { notification, sinkName: "pushover", watch });
    expect(await checkOutbox(box.deps)).toMatchObject({
      status: "ok",
      detail: "empty (asking the service about 1 sent message(s)' acknowledgement)",
    });
    await enqueue(box.deps, { notification, sinkName: "team" });
    const result = await checkOutbox(box.deps);
    expect(result).toMatchObject({ status: "warn" });
    expect(JSON.stringify(result)).toContain("1 pending, 0 failed");
  });
});

// Hook events no worker ran (link/inbox.ts). vitest runs src/: no dist/worker.cjs beside it, so
// doctor cannot start a worker here and says so (the e2e file node-runtime.test.ts starts one).
describe("checkEvents", () => {
  const plant = (box: Awaited<ReturnType<typeof outboxEnv>>, receivedAt: number) =>
    writeEvent(box.paths, {
      version: 1,
      build: "test",
      args: {},
      payload: '{"hook_event_name":"Stop"}',
      receivedAt,
      cwd: box.home,
      ppid: 1,
      env: {},
    });

  it("is ok with none waiting", async () => {
    const box = await outboxEnv({});
    expect(await checkEvents(box.deps)).toMatchObject({ check: "events", status: "ok" });
  });

  it("is ok while a just-written event waits for the worker its hook starts", async () => {
    const box = await outboxEnv({});
    plant(box, box.deps.now() - 100);
    expect(await checkEvents(box.deps)).toMatchObject({ status: "ok" });
  });

  it("fails, blocking, past a few seconds with no worker: how many and since when", async () => {
    const box = await outboxEnv({});
    const since = box.deps.now() - STRANDED_AFTER_MS - 60_000;
    plant(box, since);
    plant(box, since + 1_000);
    const result = await checkEvents(box.deps);
    expect(result).toMatchObject({ status: "fail", blocks: true });
    expect(result.detail).toContain(
      `2 hook event(s) waiting in ${box.paths.events} since ${new Date(since).toISOString().slice(0, 19).replace("T", " ")} UTC (65 s ago) with no worker running`,
    );
    expect(result.detail).toContain("no worker could be started");
    expect(result.fix).toContain("hook-notify flush");
  });
});
