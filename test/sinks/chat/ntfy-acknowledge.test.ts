// ntfy's Acknowledge button: which messages carry it, what its signed body says, which bodies on
// the reply topic count as a press (only this notification's, with this machine's MAC), and the
// options' rules. The end-to-end round trip is test/e2e/ntfy-acknowledge.test.ts.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { chat, type ChatOptions } from "../../../src/sinks/chat/index.js";
import {
  acknowledgementBody,
  isAcknowledgement,
} from "../../../src/sinks/chat/ntfy-acknowledge.js";
import { startHttpServer } from "../../helpers/http-server.js";
import { attention, failure, stop } from "./notifications.js";
import { sendContext, settle } from "./send-context.js";

const KEY = Buffer.alloc(32, 7);
const OTHER_KEY = Buffer.alloc(32, 8);
const TOKEN = "tk_0123456789abcdefghijklmnopq";

const options = (url: string, extra: Record<string, unknown> = {}) =>
  ({
    service: "ntfy",
    url: `${url}/alerts`,
    token: TOKEN,
    acknowledge: true,
    replyTopic: "acks",
    ...extra,
  }) as ChatOptions;

// A SendContext whose state folder is a fresh temporary one (the machine key is made there).
function context() {
  const ctx = sendContext();
  const dir = mkdtempSync(join(tmpdir(), "hn-ack-"));
  onTestFinished(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  ctx.deps.env = { XDG_STATE_HOME: dir };
  return ctx;
}

describe("ntfy acknowledgement bodies", () => {
  it("count only for this notification's id with this machine's MAC", () => {
    const body = acknowledgementBody(KEY, "n-1");
    expect(isAcknowledgement(KEY, "n-1", body)).toBe(true);
    expect(isAcknowledgement(KEY, "n-2", body)).toBe(false);
    expect(isAcknowledgement(OTHER_KEY, "n-1", body)).toBe(false);
    expect(isAcknowledgement(KEY, "n-1", JSON.stringify({ hn: 1, ack: "n-1" }))).toBe(false);
    expect(isAcknowledgement(KEY, "n-1", "not json")).toBe(false);
    expect(isAcknowledgement(KEY, "n-1", `${body}${" ".repeat(2000)}`)).toBe(false);
  });
});

describe("ntfy acknowledge option", () => {
  it("a waiting agent or a failure gets a signed button and a watch; done gets neither", async () => {
    const server = await startHttpServer([{ status: 200, body: '{"id":"m-1"}' }]);
    const ctx = context();
    const outcome = await settle(chat.send(attention, options(server.url), ctx));
    expect(outcome).toEqual({
      messageId: "m-1",
      watch: { firstSeconds: 15, everySeconds: 30, forSeconds: 3600 },
    });
    const sent = JSON.parse(server.requests[0]?.body ?? "") as { actions: { body: string }[] };
    const keyFile = join(String(ctx.deps.env.XDG_STATE_HOME), "hook-notify", "approve.key");
    const key = Buffer.from(readFileSync(keyFile, "utf8").trim(), "hex");
    expect(sent.actions).toEqual([
      {
        action: "http",
        label: "Acknowledge",
        url: `${server.url}/acks`,
        method: "POST",
        headers: { Authorization: `Bearer ${TOKEN}` },
        body: acknowledgementBody(key, attention.id),
        clear: true,
      },
    ]);
    expect(await settle(chat.send(failure, options(server.url), context()))).toMatchObject({
      watch: { firstSeconds: 15 },
    });
    expect(await settle(chat.send(stop, options(server.url), context()))).toEqual({
      messageId: "m-1",
    });
    expect(JSON.parse(server.requests[2]?.body ?? "")).not.toHaveProperty("actions");
  });

  it("a dry run shows where the signature goes, without the token or reply topic", () => {
    const rendered = JSON.stringify(
      chat.render(attention, options("https://ntfy.example"), sendContext().deps),
    );
    expect(rendered).toContain("(signed with the machine key when sent)");
    expect(rendered).not.toContain(TOKEN);
    expect(rendered).not.toContain("/acks");
  });

  it("needs a replyTopic that differs from the notification topic", () => {
    const parse = (extra: Record<string, unknown>) =>
      chat.options.safeParse(options("https://ntfy.example", extra)).success;
    expect(parse({})).toBe(true);
    expect(parse({ replyTopic: undefined })).toBe(false);
    expect(parse({ replyTopic: "alerts" })).toBe(false);
    expect(parse({ replyTopic: "no/slash" })).toBe(false);
    expect(parse({ acknowledge: false, replyTopic: undefined })).toBe(true);
    expect(parse({ url: "ntfys://ntfy.example/alerts" })).toBe(true);
    expect(parse({ url: "ntfys://ntfy.example/acks" })).toBe(false);
  });

  it("a look reads the reply topic: a verified press is acknowledged at the server's time", async () => {
    const ctx = context();
    const { machineKey } = await import("../../../src/machine-key.js");
    const key = machineKey(ctx.deps);
    const line = (message: string, time = 1767323045) =>
      JSON.stringify({ id: "x", time, event: "message", topic: "acks", message });
    const server = await startHttpServer([
      {
        status: 200,
        body: [
          line("hello"),
          line(acknowledgementBody(OTHER_KEY, attention.id)),
          line(acknowledgementBody(key, "n-other")),
          "",
        ].join("\n"),
      },
      { status: 200, body: `${line(acknowledgementBody(key, attention.id))}\n` },
      { status: 403, body: '{"code":40301}' },
    ]);
    const sent = { messageId: "m-1", notification: attention };
    const poll = () => settle(chat.poll!(sent, options(server.url), ctx));
    expect(await poll()).toEqual({ state: "waiting" });
    expect(await poll()).toEqual({ state: "acknowledged", at: "2026-01-02T03:04:05.000Z" });
    const refused = (await poll()) as { retryable: boolean; message: string };
    expect(refused.retryable).toBe(false);
    expect(refused.message).not.toContain(TOKEN);
    expect(server.requests[0]?.url).toBe(
      `/acks/json?poll=1&since=${Date.parse(attention.timestamp) / 1000 - 300}`,
    );
  });
});
