// Gotify against a local server answering as gotify/server does: POST /message with the app
// token in X-Gotify-Key; 200 with the stored message, 401 {"error","errorCode","errorDescription"}.
import { describe, expect, it } from "vitest";
import { entrySchemaFor } from "../../../src/config/schema.js";
import * as z from "../../../src/zod.js";
import { chat, type ChatOptions } from "../../../src/sinks/chat/index.js";
import { startHttpServer, type Reply } from "../../helpers/http-server.js";
import { attention, failure, spoofing, stop } from "./notifications.js";
import { sendContext, settle } from "./send-context.js";

const TOKEN = "AzyoeNS.D4iJLVa";
const OK: Reply = {
  status: 200,
  body: '{"id":25,"appid":5,"message":"m","title":"t","priority":4,"date":"2026-11-22T10:00:00Z"}',
};

async function sendTo(replies: Reply[], n = stop, url?: (base: string) => string) {
  const server = await startHttpServer(replies);
  const base = server.url.replace("http://", "");
  const options = {
    service: "gotify",
    url: url ? url(base) : `gotify://${base}/${TOKEN}`,
  } as ChatOptions;
  const outcome = await settle(chat.send(n, options, sendContext()));
  return { server, outcome };
}

describe("gotify options", () => {
  const parse = (entry: Record<string, unknown>) =>
    z.safeParse(entrySchemaFor(chat as never), { type: "chat", service: "gotify", ...entry });

  it.each([
    { url: `gotify://gotify.example.com/${TOKEN}` },
    { url: `gotifys://example.com:8443/path/to/${TOKEN}`, priority: 10 },
    { url: "https://gotify.example.com", token: TOKEN },
  ])("accepts %j", (entry) => {
    expect(parse(entry).success).toBe(true);
  });

  it.each([
    [{ url: "gotify://" }, "url: expected https://HOST or gotifys://HOST/TOKEN"],
    [
      { url: "https://gotify.example.com" },
      "token: the server URL needs `token` (or use gotifys://HOST/TOKEN)",
    ],
  ])("rejects %j in one line", (entry, message) => {
    const result = parse(entry);
    expect(
      result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`),
    ).toEqual([message]);
  });
});

describe("gotify against a local server", () => {
  it("gotify://HOST:PORT/TOKEN posts one message with the token in X-Gotify-Key", async () => {
    const { server, outcome } = await sendTo([OK]);
    expect(outcome).toEqual({ messageId: "25" });
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/message");
    expect(request.headers["x-gotify-key"]).toBe(TOKEN);
    expect(JSON.parse(request.body)).toEqual({
      title: stop.title,
      message: `${stop.body}\n\nshop-api · Claude Code · Stop`,
      priority: 4,
      extras: { "client::display": { contentType: "text/plain" } },
    });
  });

  it("a path prefix and the server-URL form reach the same endpoint", async () => {
    const { server } = await sendTo([OK], stop, (base) => `gotify://${base}/gotify/${TOKEN}`);
    expect(server.requests[0]!.url).toBe("/gotify/message");
  });

  it.each([
    [failure, 8],
    [attention, 6],
    [stop, 4],
  ])("priority follows the level", async (n, priority) => {
    const { server } = await sendTo([OK], n);
    expect((JSON.parse(server.requests[0]!.body) as { priority: number }).priority).toBe(priority);
  });

  it("agent text is plain text: a Markdown link arrives as written (link forms broken)", async () => {
    const { server } = await sendTo([OK], spoofing);
    const { message } = JSON.parse(server.requests[0]!.body) as { message: string };
    expect(message).toContain("]\u200B(");
    expect(message.replaceAll("\u200B", "")).toContain(spoofing.body);
  });

  it("401 is not retried and says where the token comes from", async () => {
    const { outcome } = await sendTo([
      {
        status: 401,
        body: '{"error":"Unauthorized","errorCode":401,"errorDescription":"you need to provide a valid access token or user credentials to access this api"}',
      },
    ]);
    expect(outcome).toMatchObject({ code: "SINK_HTTP_STATUS", retryable: false, status: 401 });
    expect((outcome as Error).message).toContain("valid access token");
    expect((outcome as Error).message).not.toContain(TOKEN);
  });

  it("500 is retried", async () => {
    const { outcome } = await sendTo([{ status: 500, body: '{"error":"Internal Server Error"}' }]);
    expect(outcome).toMatchObject({ retryable: true });
  });

  it("--dry-run and doctor show the server, never the token", () => {
    const options = {
      service: "gotify",
      url: `gotifys://gotify.example.com/${TOKEN}`,
    } as ChatOptions;
    expect(chat.describeTarget(options)).toBe("https://gotify.example.com (gotify)");
    expect(JSON.stringify(chat.render(stop, options, sendContext().deps))).not.toContain(TOKEN);
  });
});
