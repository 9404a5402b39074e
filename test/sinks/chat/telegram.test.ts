// Telegram against a local stand-in of the Bot API (apiUrl), answering as
// https://core.telegram.org/bots/api documents: {"ok":true,"result":{…}} or
// {"ok":false,"error_code","description","parameters"}.
import { describe, expect, it } from "vitest";
import { entrySchemaFor } from "../../../src/config/schema.js";
import * as z from "../../../src/zod.js";
import { chat, type ChatOptions } from "../../../src/sinks/chat/index.js";
import {
  escapeMarkdownV2,
  escapeTelegramHtml,
  telegram,
} from "../../../src/sinks/chat/telegram.js";
import { startHttpServer, type Reply } from "../../helpers/http-server.js";
import { hostile, spoofing, stop, failure } from "./notifications.js";
import { sendContext, settle } from "./send-context.js";

const TOKEN = "123456789:AAHsecretTOKENsecretTOKEN_x-y";
const OK: Reply = {
  status: 200,
  headers: { "content-type": "application/json" },
  body: '{"ok":true,"result":{"message_id":4711,"chat":{"id":-1001234}}}',
};
const RESERVED = "_*[]()~`>#+-=|{}.!\\";

async function sendTo(replies: Reply[], extra: Record<string, unknown> = {}, n = stop) {
  const server = await startHttpServer(replies);
  const options = {
    service: "telegram",
    url: `tgram://${TOKEN}/-1001234:7`,
    apiUrl: server.url,
    ...extra,
  } as ChatOptions;
  const outcome = await settle(chat.send(n, options, sendContext()));
  return { server, outcome, options };
}

// MarkdownV2 as Telegram reads it: a backslash makes the next character literal; any other
// reserved character is markup. Returns the literal text, or undefined if markup is left.
function readMarkdownV2(text: string): string | undefined {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? "";
    if (c === "\\") out += text[++i] ?? "";
    else if (RESERVED.includes(c)) return undefined;
    else out += c;
  }
  return out;
}

describe("telegram options", () => {
  const schema = entrySchemaFor(chat);
  const issues = (entry: Record<string, unknown>) => {
    const result = z.safeParse(schema, { type: "chat", service: "telegram", ...entry });
    return result.success
      ? []
      : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  };

  it.each([
    { url: `tgram://${TOKEN}/-1001234` },
    { url: `tgram://${TOKEN}/@mychannel` },
    { url: `tgram://${TOKEN}/12345:9`, format: "html" },
    { botToken: TOKEN, chatId: 12345, threadId: 3, apiUrl: "http://127.0.0.1:8081" },
  ])("accepts %j", (entry) => {
    expect(issues(entry)).toEqual([]);
  });

  it("says which form it expects for a url it cannot read, in one line", () => {
    expect(issues({ url: "tgram://nottoken/chat" })).toEqual([
      "url: expected tgram://BOT_TOKEN/CHAT_ID",
    ]);
    expect(issues({ url: `https://api.telegram.org/bot${TOKEN}` })).toEqual([
      "url: expected tgram://BOT_TOKEN/CHAT_ID",
    ]);
  });

  it("needs a url, or a token and a chat id", () => {
    expect(issues({ botToken: TOKEN })).toEqual([
      "url: expected tgram://BOT_TOKEN/CHAT_ID, or botToken and chatId",
    ]);
  });
});

describe("telegram escaping", () => {
  it.each(Array.from(RESERVED))("MarkdownV2 escapes %s", (c) => {
    expect(escapeMarkdownV2(`a${c}b`)).toBe(`a\\${c}b`);
  });

  it("MarkdownV2 text reads back as the agent wrote it, with no markup left", () => {
    const text = `${spoofing.body} _x_ *b* ~s~ \`c\` > q # + - = | {y} . ! \\ <b>tag</b>`;
    const read = readMarkdownV2(escapeMarkdownV2(text));
    // As in every service, a zero-width space breaks link forms; the words are the agent's.
    expect(read).toContain("]\u200B(");
    expect(read?.replaceAll("\u200B", "")).toBe(text);
  });

  it("HTML escapes tags and entities", () => {
    expect(escapeTelegramHtml('<a href="x">y</a> & <b>')).toBe(
      '&lt;a href="x"&gt;y&lt;/a&gt; &amp; &lt;b&gt;',
    );
  });
});

describe("telegram sendMessage against a local Bot API", () => {
  it("posts one documented sendMessage request and returns the message id", async () => {
    const { server, outcome } = await sendTo([OK]);
    expect(outcome).toEqual({ messageId: "4711" });
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.url).toBe(`/bot${TOKEN}/sendMessage`);
    expect(request.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(request.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      chat_id: "-1001234",
      message_thread_id: 7,
      parse_mode: "MarkdownV2",
      disable_notification: true, // "done" is silent
      link_preview_options: { is_disabled: true },
    });
    expect(Object.keys(body).sort()).toEqual([
      "chat_id",
      "disable_notification",
      "link_preview_options",
      "message_thread_id",
      "parse_mode",
      "text",
    ]);
  });

  it("hostile text arrives as text: the message reads back to the agent's words", async () => {
    const { server } = await sendTo([OK], {}, hostile);
    const { text } = JSON.parse(server.requests[0]!.body) as { text: string };
    const [head = "", ...rest] = text.split("\n");
    // Our own markup: *title* and _origin_; everything between is escaped agent text.
    expect(readMarkdownV2(head.replace(/^\S+ \*(.*)\*$/, "$1"))).toBeDefined();
    const body = rest.slice(0, -1).join("\n");
    expect(readMarkdownV2(body)?.replaceAll("\u200B", "")).toBe(hostile.body);
  });

  it("rings for a failure, and sends HTML when asked", async () => {
    const { server } = await sendTo([OK], { format: "html" }, failure);
    const body = JSON.parse(server.requests[0]!.body) as Record<string, unknown>;
    expect(body.parse_mode).toBe("HTML");
    expect(body.disable_notification).toBeUndefined();
    expect(body.text).toMatch(/^🚨 <b>shop-api: session ended unexpectedly<\/b>\n/);
  });

  it("429 is retried after parameters.retry_after", async () => {
    const { outcome } = await sendTo([
      {
        status: 429,
        body: '{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 17","parameters":{"retry_after":17}}',
      },
    ]);
    expect(outcome).toMatchObject({
      code: "SINK_HTTP_STATUS",
      retryable: true,
      retryAfterMs: 17_000,
    });
  });

  it.each([
    [400, "Bad Request: chat not found"],
    [403, "Forbidden: bot was blocked by the user"],
    [401, "Unauthorized"],
  ])("%i %s is not retried, and names what Telegram said", async (status, description) => {
    const { outcome } = await sendTo([
      { status, body: JSON.stringify({ ok: false, error_code: status, description }) },
    ]);
    expect(outcome).toMatchObject({ code: "SINK_HTTP_STATUS", retryable: false, status });
    expect((outcome as Error).message).toContain(description);
    expect((outcome as Error).message).not.toContain("AAHsecret");
  });

  it("a group that became a supergroup names the new chat id", async () => {
    const { outcome } = await sendTo([
      {
        status: 400,
        body: '{"ok":false,"error_code":400,"description":"Bad Request: group chat was upgraded to a supergroup chat","parameters":{"migrate_to_chat_id":-1009876}}',
      },
    ]);
    expect((outcome as Error).message).toContain("-1009876");
  });

  it("502 is retried", async () => {
    const { outcome } = await sendTo([{ status: 502, body: "Bad Gateway" }]);
    expect(outcome).toMatchObject({ retryable: true });
  });
});

describe("telegram in --dry-run and doctor", () => {
  const options = { service: "telegram", url: `tgram://${TOKEN}/-1001234` } as ChatOptions;

  it("renders the request with the token masked", () => {
    const rendered = JSON.stringify(chat.render(stop, options, sendContext().deps));
    expect(rendered).toContain("https://api.telegram.org/…");
    expect(rendered).not.toContain("AAHsecret");
    expect(rendered).not.toContain("123456789");
  });

  it("describes the chat, not the token", () => {
    expect(chat.describeTarget(options)).toBe(
      "telegram chat -1001234 via https://api.telegram.org",
    );
    expect(telegram.describe({ service: "telegram", botToken: TOKEN, chatId: 5 })).not.toContain(
      "AAH",
    );
  });
});
