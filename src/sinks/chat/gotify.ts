// Gotify, POST /message with an application token: https://gotify.net/api-docs#/message/createMessage
import * as z from "../../zod.js";
import type { Level, Notification } from "../../core/notification.js";
import { assertSuccess, type HttpResponse } from "../../http/post.js";
import { redactUrl } from "../../redact.js";
import { idOf, parseJson, reject, shortText } from "./answer.js";
import { defineChatService, type AppriseForm, type ChatRequest } from "./service.js";
import { describeOrigin, encodeText, fitText } from "./text.js";
import { splitUrl, urlOption } from "./url-option.js";

/** A `chat` entry with "service": "gotify", as validated (the url may be the Apprise form). */
export interface GotifyOptions {
  service: "gotify";
  url: string;
  token?: string | undefined;
  priority?: number | undefined;
}

// Gotify's Android app: 8-10 high (sound and pop-up), 4-7 with sound, 1-3 silent.
const PRIORITY: Record<Level, number> = { failure: 8, attention: 6, done: 4, info: 2, limit: 4 };
// No documented limits; these keep a message readable on a phone.
export const GOTIFY_LIMITS = { title: 250, message: 8000 };

// Apprise `gotify://HOST[:PORT][/PATH]/TOKEN` (http) and `gotifys://…` (https).
function parseApprise(value: string): Partial<GotifyOptions> | undefined {
  const url = splitUrl(value);
  const token = url?.segments.at(-1);
  if (!url || url.host === "" || token === undefined || !/^[\w.-]+$/.test(token)) return undefined;
  const prefix = url.segments
    .slice(0, -1)
    .map((s) => `/${encodeURIComponent(s)}`)
    .join("");
  const scheme = url.scheme === "gotifys" ? "https" : "http";
  return { url: `${scheme}://${url.host}${prefix}`, token };
}

// The server root and the token, whichever way they were written.
function target(options: GotifyOptions): { root: string; token: string } {
  const fromUrl = options.url.includes("://") ? parseApprise(options.url) : undefined;
  const isApprise = /^gotifys?:\/\//i.test(options.url);
  const root = (isApprise ? (fromUrl?.url ?? "") : options.url).replace(/\/+$/, "");
  return { root, token: options.token ?? fromUrl?.token ?? "" };
}

// Plain text (extras client::display), so Markdown in agent text is shown as written; mentions
// and link forms are broken as everywhere (a zero-width space), for clients that render more.
function build(notification: Notification, options: GotifyOptions): ChatRequest {
  const { root, token } = target(options);
  const origin = describeOrigin(notification);
  const text = [notification.body, origin].filter((part) => part !== "").join("\n\n");
  return {
    url: `${root}/message`,
    headers: { "content-type": "application/json", "x-gotify-key": token },
    body: {
      title: fitText(notification.title, encodeText, { chars: GOTIFY_LIMITS.title }),
      message: fitText(text === "" ? notification.title : text, encodeText, {
        chars: GOTIFY_LIMITS.message,
      }),
      priority: options.priority ?? PRIORITY[notification.level],
      extras: { "client::display": { contentType: "text/plain" } },
    },
  };
}

// 200 `{"id":…}`; errors are `{"error","errorCode","errorDescription"}` (401/403: the token).
function read(response: HttpResponse, sinkName: string) {
  const { status } = response;
  const json = parseJson(response.text);
  if (status === 401 || status === 403) {
    const said = shortText(json?.errorDescription);
    const hint = "the application token was refused: copy it from Gotify's Apps page";
    reject({ sinkName, service: "Gotify", status, said, hint, retryable: false });
  }
  assertSuccess(response, { sinkName, service: "Gotify" });
  return { messageId: idOf(json?.id) };
}

const APPRISE: AppriseForm<GotifyOptions> = {
  schemes: ["gotify", "gotifys"],
  form: "gotifys://HOST/TOKEN",
  parse: parseApprise,
};

// Everything hook-notify knows about a Gotify application: options, Apprise form, request, answer.
export const gotify = defineChatService<GotifyOptions>({
  id: "gotify",
  name: "Gotify",
  shape: () => ({
    url: urlOption(
      APPRISE,
      "https://HOST",
      "Gotify server URL with `token`, or the Apprise form gotifys://HOST/TOKEN (gotify:// for http).",
    ),
    token: z.optional(
      z.string().check(
        z.minLength(1),
        z.meta({
          secret: true,
          description: "Application token, when url is the server URL. Secret.",
        }),
      ),
    ),
    priority: z.optional(
      z
        .int()
        .check(
          z.gte(0),
          z.lte(10),
          z.describe("Fixed priority 0-10 instead of 8 failure / 6 attention / 4 done."),
        ),
    ),
  }),
  refine: (options) =>
    /^https?:\/\//i.test(options.url) && options.token === undefined
      ? { path: "token", message: "the server URL needs `token` (or use gotifys://HOST/TOKEN)" }
      : undefined,
  apprise: APPRISE,
  build,
  // GET /health proves a Gotify server answers there; an application token may only create
  // messages (gotify.net/api-docs), so nothing reads it without sending.
  probe: (options) => ({
    url: `${target(options).root}/health`,
    method: "GET",
    headers: {},
    body: "",
    unproved: "the application token is read only when a message is sent",
  }),
  read,
  escape: encodeText,
  describe: (options) => `${redactUrl(target(options).root)} (gotify)`,
  secretParts: (options) => [target(options).token],
  example: "gotifys://gotify.example.com/AzyoeNS.D4iJLVa",
  starter: { name: "GOTIFY_URL", what: "gotifys://HOST/TOKEN (an application token)" },
});
