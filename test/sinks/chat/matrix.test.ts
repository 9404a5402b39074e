// Matrix against a local homeserver stand-in answering as the client-server API documents:
// 200 {"event_id"}, errors {"errcode","error"} (429 M_LIMIT_EXCEEDED with retry_after_ms).
import { describe, expect, it } from "vitest";
import { entrySchemaFor } from "../../../src/config/schema.js";
import { chat, type ChatOptions } from "../../../src/sinks/chat/index.js";
import * as z from "../../../src/zod.js";
import { startHttpServer, type Reply } from "../../helpers/http-server.js";
import { hostile, stop } from "./notifications.js";
import { sendContext, settle } from "./send-context.js";

const TOKEN = "syt_bWF0cml4_canaryAccessToken_1a2b3c";
const ROOM = "!AbCdEf123:example.org";
const OK: Reply = { status: 200, body: '{"event_id":"$Yd3lT6ca:example.org"}' };

async function sendTo(replies: Reply[], n = stop) {
  const server = await startHttpServer(replies);
  const host = server.url.replace("http://", "");
  const options = { service: "matrix", url: `matrix://${TOKEN}@${host}/${ROOM}` } as ChatOptions;
  const outcome = await settle(chat.send(n, options, sendContext()));
  return { server, outcome };
}

describe("matrix options", () => {
  const issues = (entry: Record<string, unknown>) => {
    const result = z.safeParse(entrySchemaFor(chat as never), {
      type: "chat",
      service: "matrix",
      ...entry,
    });
    return result.success
      ? []
      : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  };

  it.each([
    { url: `matrixs://${TOKEN}@matrix.example.org/${ROOM}` },
    { url: "https://matrix.example.org", accessToken: TOKEN, roomId: ROOM, msgtype: "text" },
  ])("accepts %j", (entry) => {
    expect(issues(entry)).toEqual([]);
  });

  it.each([
    [{ url: "matrixs://user:pass@matrix.example.org/#room:example.org" }],
    [{ url: `matrixs://${TOKEN}@matrix.example.org/notaroom` }],
  ])("names its form for a URL it cannot read: %j", (entry) => {
    expect(issues(entry)).toEqual([
      "url: expected https://HOMESERVER or matrixs://ACCESS_TOKEN@HOST/!ROOM_ID:SERVER",
    ]);
  });

  it("a homeserver URL needs the token and the room", () => {
    expect(issues({ url: "https://matrix.example.org" })).toEqual([
      "url: the homeserver URL needs accessToken and roomId (or matrixs://ACCESS_TOKEN@HOST/!ROOM_ID:SERVER)",
    ]);
  });
});

describe("matrix against a local homeserver", () => {
  it("PUTs one m.notice to the room with a transaction id, and returns the event id", async () => {
    const { server, outcome } = await sendTo([OK]);
    expect(outcome).toEqual({ messageId: "$Yd3lT6ca:example.org" });
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.method).toBe("PUT");
    expect(request.url).toMatch(
      /^\/_matrix\/client\/v3\/rooms\/!AbCdEf123%3Aexample\.org\/send\/m\.room\.message\/hn-[0-9a-f]{16}$/,
    );
    expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.parse(request.body)).toMatchObject({
      msgtype: "m.notice",
      format: "org.matrix.custom.html",
      "m.mentions": {},
    });
  });

  it("a retry of the same notification is the same transaction", async () => {
    const first = await sendTo([OK]);
    const second = await sendTo([OK]);
    expect(first.server.requests[0]!.url).toBe(second.server.requests[0]!.url);
  });

  it("hostile text is inert: no tag in formatted_body, no live mention", async () => {
    const { server } = await sendTo([OK], hostile);
    const sent = JSON.parse(server.requests[0]!.body) as { body: string; formatted_body: string };
    expect(sent.formatted_body).not.toMatch(/<(?!\/?(b|i|br)>)/);
    expect(sent.formatted_body).toContain("&lt;script&gt;");
    expect(sent.body).not.toMatch(/@(everyone|here|room)\b/);
  });

  it("429 M_LIMIT_EXCEEDED is retried after retry_after_ms", async () => {
    const { outcome } = await sendTo([
      {
        status: 429,
        body: '{"errcode":"M_LIMIT_EXCEEDED","error":"Too many requests","retry_after_ms":2000}',
      },
    ]);
    expect(outcome).toMatchObject({
      code: "SINK_HTTP_STATUS",
      retryable: true,
      retryAfterMs: 2000,
    });
  });

  it.each([
    [401, "M_UNKNOWN_TOKEN"],
    [403, "M_FORBIDDEN"],
  ])("%i %s is not retried and names the errcode", async (status, errcode) => {
    const { outcome } = await sendTo([{ status, body: JSON.stringify({ errcode, error: "no" }) }]);
    expect(outcome).toMatchObject({ code: "SINK_HTTP_STATUS", retryable: false, status });
    expect((outcome as Error).message).toContain(errcode);
    expect((outcome as Error).message).not.toContain(TOKEN);
  });

  it("--dry-run and doctor show the room, never the token", () => {
    const options = {
      service: "matrix",
      url: `matrixs://${TOKEN}@matrix.example.org/${ROOM}`,
    } as ChatOptions;
    expect(chat.describeTarget(options)).toBe(`matrix room ${ROOM} on https://matrix.example.org`);
    expect(JSON.stringify(chat.render(stop, options, sendContext().deps))).not.toContain(
      "canaryAccessToken",
    );
  });
});
