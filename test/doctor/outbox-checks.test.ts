// doctor's outbox line: a look at a sent message's receipt (a watch entry in pending/) is no
// undelivered notification, so it alone leaves the outbox "empty".
import { describe, expect, it } from "vitest";
import { checkOutbox } from "../../src/doctor/outbox-checks.js";
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
