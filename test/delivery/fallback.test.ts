import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { logPath } from "../../src/config/paths.js";
import { requeueFailed } from "../../src/outbox/read-entries.js";
import { enqueue } from "../../src/outbox/store.js";
import { drain, type DrainOptions } from "../../src/worker/drain.js";
import { startHttpServer } from "../helpers/http-server.js";
import { outboxEnv } from "../helpers/outbox-env.js";
import { sampleNotification } from "../helpers/sample-notification.js";
import { startSmtpServer } from "../helpers/smtp-server.js";

const fast: DrainOptions = { policy: { baseMs: 20, minMs: 10, capMs: 50 }, random: () => 1 };

// A Discord webhook that is gone (404 Unknown Webhook) and an e-mail sink that only stands in.
async function discordGoneMailStandsIn() {
  const discord = await startHttpServer([
    { status: 404, body: '{"message": "Unknown Webhook", "code": 10015}' },
  ]);
  const smtp = await startSmtpServer();
  const box = await outboxEnv({
    team: {
      type: "chat",
      service: "discord",
      url: `${discord.url}/api/webhooks/1/TOKEN-do-not-leak`,
      fallback: ["mail"],
    },
    mail: {
      type: "email",
      events: [],
      from: "agent@example.com",
      to: ["dev@example.com"],
      smtp: { host: "127.0.0.1", port: smtp.port, secure: false },
    },
  });
  return { discord, smtp, box };
}

async function journal(box: Awaited<ReturnType<typeof outboxEnv>>) {
  const text = await readFile(logPath(box.deps), "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.outbox !== "worker");
}

describe("fallback", () => {
  it("a Discord sink answering 404 hands the notification to mail, which sends it exactly once", async () => {
    const { discord, smtp, box } = await discordGoneMailStandsIn();
    const notification = sampleNotification();
    await enqueue(box.deps, { notification, sinkName: "team" });
    expect(await drain(box.deps, fast)).toMatchObject({ failed: 1, remaining: 1 });
    expect(await drain(box.deps, fast)).toMatchObject({ delivered: 1, remaining: 0 });
    expect(await drain(box.deps, fast)).toMatchObject({ delivered: 0, remaining: 0 });
    expect(discord.requests).toHaveLength(1);
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]?.subject).toContain("Session ended with an error");
    expect(await journal(box)).toEqual([
      expect.objectContaining({
        outbox: "failed",
        sink: "team",
        id: notification.id,
        code: "SINK_HTTP_STATUS",
        message: expect.stringContaining("404") as string,
        fallback: ["mail"],
      }),
      expect.objectContaining({
        outbox: "delivered",
        sink: "mail",
        id: notification.id,
        fallbackOf: "team",
      }),
    ]);
    const [failed] = await box.files("failed");
    expect(failed).toMatchObject({ sinkName: "team", fallbackSent: ["mail"] });
    expect(await box.everything()).not.toContain("TOKEN-do-not-leak");
  });

  it("mail among the notification's own sinks: the fallback is skipped, mail gets it once", async () => {
    const { discord, smtp, box } = await discordGoneMailStandsIn();
    const notification = sampleNotification();
    // What the hook queues when a notification goes to both: each entry names the other.
    await enqueue(box.deps, { notification, sinkName: "team", siblings: ["mail"] });
    await enqueue(box.deps, { notification, sinkName: "mail", siblings: ["team"] });
    expect(await drain(box.deps, fast)).toMatchObject({ delivered: 1, failed: 1, remaining: 0 });
    expect(await drain(box.deps, fast)).toMatchObject({ delivered: 0, remaining: 0 });
    expect(discord.requests).toHaveLength(1);
    expect(smtp.messages).toHaveLength(1);
    const failed = (await journal(box)).find((line) => line.outbox === "failed");
    expect(failed).toMatchObject({ sink: "team", fallbackSkipped: ["mail"] });
    expect(failed?.fallback).toBeUndefined();
    expect(await box.files("pending")).toEqual([]);
  });

  it("a target with its own delivery of the notification still pending is skipped too", async () => {
    const { smtp, box } = await discordGoneMailStandsIn();
    const notification = sampleNotification();
    await enqueue(box.deps, { notification, sinkName: "team" });
    // mail's own entry, due later (an older entry without siblings, or one held back).
    await enqueue(box.deps, { notification, sinkName: "mail", notBefore: Date.now() + 60_000 });
    expect(await drain(box.deps, fast)).toMatchObject({ failed: 1, remaining: 1 });
    const failed = (await journal(box)).find((line) => line.outbox === "failed");
    expect(failed).toMatchObject({ sink: "team", fallbackSkipped: ["mail"] });
    expect((await box.files("pending")).map((e) => (e as { sinkName: string }).sinkName)).toEqual([
      "mail",
    ]);
    expect(smtp.messages).toHaveLength(0);
  });

  it("a failed entry retried by flush --retry-failed that fails again does not mail twice", async () => {
    const { discord, smtp, box } = await discordGoneMailStandsIn();
    await enqueue(box.deps, { notification: sampleNotification(), sinkName: "team" });
    await drain(box.deps, fast);
    await drain(box.deps, fast);
    expect(await requeueFailed(box.paths, Date.now())).toBe(1);
    expect(await drain(box.deps, fast)).toMatchObject({ failed: 1, remaining: 0 });
    expect(discord.requests).toHaveLength(2);
    expect(smtp.messages).toHaveLength(1);
  });
});
