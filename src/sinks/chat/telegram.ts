// Telegram Bot API sendMessage: https://core.telegram.org/bots/api#sendmessage
import * as z from "../../zod.js";
import type { Notification } from "../../core/notification.js";
import { assertSuccess, type HttpResponse } from "../../http/post.js";
import { idOf, parseJson, reject, shortText } from "./answer.js";
import { defineChatService, type AppriseForm, type ChatRequest } from "./service.js";
import { describeOrigin, encodeText, fitText, levelEmoji } from "./text.js";
import { urlOption } from "./url-option.js";

/** A `chat` entry with "service": "telegram", as validated (the url may be the Apprise form). */
export interface TelegramOptions {
  service: "telegram";
  url?: string | undefined;
  botToken?: string | undefined;
  chatId?: string | number | undefined;
  threadId?: number | undefined;
  apiUrl?: string | undefined;
  format?: "markdown" | "html" | undefined;
  silentWhenDone?: boolean | undefined;
}

// The public Bot API; `apiUrl` names a self-hosted telegram-bot-api server instead.
export const TELEGRAM_API = "https://api.telegram.org";
// `text` is 1-4096 characters after entities parsing; escapes only add characters, so measuring
// the escaped text keeps the parsed one within bounds. Title and origin lines stay short.
export const TELEGRAM_LIMITS = { text: 4096, line: 256 };

// Every character MarkdownV2 reserves, and the backslash that escapes them (sendMessage,
// "MarkdownV2 style": each must be preceded by '\' outside entities).
const MARKDOWN_RESERVED = /[_*[\]()~`>#+\-=|{}.!\\]/g;

// MarkdownV2: each reserved character escaped, so agent text is text (no link, no bold); as in
// every service, mentions and link forms are broken first (a zero-width space).
export function escapeMarkdownV2(text: string): string {
  return encodeText(text).replace(MARKDOWN_RESERVED, "\\$&");
}

// HTML style: only <, > and & need entities; a tag in agent text shows as written.
export function escapeTelegramHtml(text: string): string {
  return encodeText(text).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

// Apprise `tgram://BOT_TOKEN/CHAT_ID` (a forum topic as `CHAT_ID:THREAD_ID`). The token holds a
// ":" where WHATWG URL would read a port, so the form is matched as text.
function parseApprise(value: string): Partial<TelegramOptions> | undefined {
  const match = /^tgram:\/\/(?:bot)?(\d+:[\w-]+)\/(-?\d+|@[A-Za-z][\w]{3,})(?::(\d+))?\/?$/i.exec(
    value,
  );
  if (!match) return undefined;
  const [, botToken, chatId, thread] = match;
  return { botToken, chatId, ...(thread ? { threadId: Number(thread) } : {}) };
}

// The token, chat and thread whichever way they were written (url first, options override), and
// the Bot API server without a trailing "/" (approve calls the bot's other methods there).
export function telegramTarget(options: TelegramOptions) {
  const fromUrl = options.url !== undefined ? parseApprise(options.url) : undefined;
  return {
    botToken: options.botToken ?? fromUrl?.botToken ?? "",
    chatId: options.chatId ?? fromUrl?.chatId ?? "",
    threadId: options.threadId ?? fromUrl?.threadId,
    api: (options.apiUrl ?? TELEGRAM_API).replace(/\/+$/, ""),
  };
}

// The message text: level emoji and bold title, the body, the origin in italics.
function messageText(notification: Notification, html: boolean): string {
  const escape = html ? escapeTelegramHtml : escapeMarkdownV2;
  const limit = { chars: TELEGRAM_LIMITS.line };
  const title = fitText(notification.title, escape, limit);
  const origin = fitText(describeOrigin(notification), escape, limit);
  const head = `${levelEmoji(notification.level)} ${html ? `<b>${title}</b>` : `*${title}*`}`;
  const tail = origin === "" ? "" : `\n${html ? `<i>${origin}</i>` : `_${origin}_`}`;
  const room = TELEGRAM_LIMITS.text - head.length - tail.length - 1;
  const body =
    notification.body === "" ? "" : `\n${fitText(notification.body, escape, { chars: room })}`;
  return `${head}${body}${tail}`;
}

// sendMessage with every field from the docs we use: no link preview (agent text may carry a
// URL), silent for "done" and for a notice ("info"), into a forum topic when a thread is given.
function build(notification: Notification, options: TelegramOptions): ChatRequest {
  const { botToken, chatId, threadId, api } = telegramTarget(options);
  const html = options.format === "html";
  const body: Record<string, unknown> = {
    chat_id: chatId,
    text: messageText(notification, html),
    parse_mode: html ? "HTML" : "MarkdownV2",
    link_preview_options: { is_disabled: true },
  };
  if (threadId !== undefined) body.message_thread_id = threadId;
  if (notification.level === "info") body.disable_notification = true;
  else if (notification.level === "done" && options.silentWhenDone !== false) {
    body.disable_notification = true;
  }
  return {
    url: `${api}/bot${botToken}/sendMessage`,
    headers: { "content-type": "application/json" },
    body,
  };
}

// `{"ok":true,"result":{"message_id":…}}` (sendMessage; approve's calls too), or `{"ok":false,"error_code","description",
// "parameters":{"retry_after"|"migrate_to_chat_id"}}`.
export function readTelegram(response: HttpResponse, sinkName: string) {
  const json = parseJson(response.text);
  const { status } = response;
  if (status >= 200 && status < 300 && json?.ok === true) {
    return { messageId: idOf((json.result as { message_id?: unknown } | undefined)?.message_id) };
  }
  const said = shortText(json?.description);
  const parameters = (json?.parameters ?? {}) as {
    retry_after?: unknown;
    migrate_to_chat_id?: unknown;
  };
  const base = { sinkName, service: "Telegram", status, said };
  if (status === 429) {
    const seconds = typeof parameters.retry_after === "number" ? parameters.retry_after : 30;
    const hint = `flood control; it will be retried in ${seconds} s`;
    reject({ ...base, hint, retryable: true, retryAfterMs: seconds * 1000 });
  }
  if (parameters.migrate_to_chat_id !== undefined) {
    const hint = `the group became a supergroup: set chatId to ${idOf(parameters.migrate_to_chat_id) ?? "the new id"}`;
    reject({ ...base, hint, retryable: false });
  }
  if (status === 401 || status === 404) {
    reject({
      ...base,
      hint: "the bot token was refused: check it with @BotFather",
      retryable: false,
    });
  }
  if (status === 400 || status === 403) {
    const hint = "check chatId and that the bot is a member of that chat (and may post there)";
    reject({ ...base, hint, retryable: false });
  }
  assertSuccess(response, { sinkName, service: "Telegram" });
  return {};
}

const APPRISE: AppriseForm<TelegramOptions> = {
  schemes: ["tgram"],
  form: "tgram://BOT_TOKEN/CHAT_ID",
  parse: parseApprise,
};

// Where it goes: the Apprise url, or the token and chat (and topic), and the Bot API server.
function targetShape() {
  return {
    url: z.optional(
      urlOption(
        APPRISE,
        undefined,
        "Apprise form tgram://BOT_TOKEN/CHAT_ID (or CHAT_ID:THREAD_ID), instead of botToken and chatId.",
      ),
    ),
    botToken: z.optional(
      z
        .string()
        .check(
          z.regex(/^\d+:[\w-]+$/, "expected the token @BotFather gave, like 123456:ABC-DEF…"),
          z.meta({ secret: true, description: "Bot token from @BotFather. Secret." }),
        ),
    ),
    chatId: z.optional(
      z
        .union([z.int(), z.string().check(z.regex(/^(-?\d+|@[A-Za-z]\w{3,})$/))])
        .check(z.describe("Chat id (a number, -100… for groups) or @channelusername.")),
    ),
    threadId: z.optional(
      z
        .int()
        .check(
          z.gte(1),
          z.lte(2_147_483_647),
          z.describe("Forum topic to post in (message_thread_id)."),
        ),
    ),
    apiUrl: z.optional(
      z.url({ protocol: /^https?$/ }).check(
        z.meta({
          description: "Bot API server (a self-hosted telegram-bot-api).",
          default: TELEGRAM_API,
        }),
      ),
    ),
  };
}

// Options that change how the message looks and rings.
function styleShape() {
  return {
    format: z.optional(
      z
        .enum(["markdown", "html"])
        .check(
          z.describe(
            'Message markup: "markdown" (MarkdownV2) or "html"; agent text is escaped in both.',
          ),
        ),
    ),
    silentWhenDone: z.optional(
      z
        .boolean()
        .check(z.describe('false: a finished turn ("done") plays a sound too. Default: silent.')),
    ),
  };
}

// Its options besides `service`, in the order the docs list them.
function shape() {
  return { ...targetShape(), ...styleShape() };
}

// Everything hook-notify knows about a Telegram chat through a bot: options, Apprise form, request, answer.
export const telegram = defineChatService<TelegramOptions>({
  id: "telegram",
  name: "Telegram",
  shape,
  refine: (options) =>
    options.url !== undefined || (options.botToken !== undefined && options.chatId !== undefined)
      ? undefined
      : { path: "url", message: `expected ${APPRISE.form}, or botToken and chatId` },
  apprise: APPRISE,
  build,
  // getMe proves the bot token and sends nothing (core.telegram.org/bots/api#getme).
  probe: (options) => {
    const { api, botToken } = telegramTarget(options);
    return { url: `${api}/bot${botToken}/getMe`, method: "GET", headers: {}, body: "" };
  },
  read: readTelegram,
  escape: escapeMarkdownV2,
  describe: (options) => {
    const { chatId, threadId } = telegramTarget(options);
    const where = new URL(options.apiUrl ?? TELEGRAM_API).origin;
    return `telegram chat ${String(chatId)}${threadId === undefined ? "" : ` topic ${threadId}`} via ${where}`;
  },
  secretParts: (options) => [telegramTarget(options).botToken],
  example: "tgram://123456:ABC-def/-100123",
  starter: { name: "TELEGRAM_URL", what: "tgram://BOT_TOKEN/CHAT_ID (token from @BotFather)" },
});
