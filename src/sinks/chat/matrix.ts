// Matrix, a room message through the client-server API:
// https://spec.matrix.org/latest/client-server-api/#put_matrixclientv3roomsroomidsendeventtypetxnid
import * as z from "../../zod.js";
import type { Notification } from "../../core/notification.js";
import { fnv1a64 } from "../../fnv1a.js";
import { assertSuccess, type HttpResponse } from "../../http/post.js";
import { redactUrl } from "../../redact.js";
import { idOf, parseJson, reject, shortText } from "./answer.js";
import { defineChatService, type AppriseForm, type ChatRequest } from "./service.js";
import { describeOrigin, encodeText, fitText, levelEmoji } from "./text.js";
import { isHttpUrl, splitUrl, urlOption } from "./url-option.js";

/** A `chat` entry with "service": "matrix", as validated (the url may be the Apprise form). */
export interface MatrixOptions {
  service: "matrix";
  url: string;
  accessToken?: string | undefined;
  roomId?: string | undefined;
  msgtype?: "notice" | "text" | undefined;
}

// An event is at most 65,536 bytes (spec, "Size limits"): the plain body and the HTML body
// share it, the HTML one growing with its entities.
export const MATRIX_LIMITS = { plainJsonBytes: 20_000, htmlJsonBytes: 36_000 };
const ROOM_ID = /^![^:\s/]+:[^\s/]+$/;

// Apprise `matrixs://ACCESS_TOKEN@HOST[:PORT]/!ROOM_ID:SERVER` (https; matrix:// for http).
// A room alias (#room:server) needs a directory lookup and a user:password login a session:
// neither is read.
function parseApprise(value: string): Partial<MatrixOptions> | undefined {
  const url = splitUrl(value);
  if (!url?.userinfo || url.userinfo.includes(":") || url.host === "") return undefined;
  const [roomId, ...rest] = url.segments;
  if (rest.length > 0 || roomId === undefined || !ROOM_ID.test(roomId)) return undefined;
  const scheme = url.scheme === "matrixs" ? "https" : "http";
  return { url: `${scheme}://${url.host}`, accessToken: url.userinfo, roomId };
}

const APPRISE: AppriseForm<MatrixOptions> = {
  schemes: ["matrix", "matrixs"],
  form: "matrixs://ACCESS_TOKEN@HOST/!ROOM_ID:SERVER",
  parse: parseApprise,
};

// The homeserver, token and room, whichever way they were written.
function target(options: MatrixOptions): { server: string; token: string; roomId: string } {
  const fromUrl = isHttpUrl(options.url) ? undefined : parseApprise(options.url);
  const server = (fromUrl?.url ?? options.url).replace(/\/+$/, "");
  return {
    server,
    token: options.accessToken ?? fromUrl?.accessToken ?? "",
    roomId: options.roomId ?? fromUrl?.roomId ?? "",
  };
}

// HTML for formatted_body: every character that could open a tag or an entity.
export function escapeMatrixHtml(text: string): string {
  return encodeText(text)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

// The event content: a notice (bots' messages) with a plain body and an HTML one, and an empty
// `m.mentions` so that no text in it pings anyone (intentional mentions, spec v1.7).
function content(notification: Notification, msgtype: string): Record<string, unknown> {
  const { title, body, level } = notification;
  const origin = describeOrigin(notification);
  const plainText = [`${levelEmoji(level)} ${title}`, body, origin].filter(Boolean).join("\n");
  const html = (text: string): string => escapeMatrixHtml(text).replaceAll("\n", "<br>");
  const htmlParts = [`${levelEmoji(level)} <b>${html(title)}</b>`];
  if (body !== "") htmlParts.push(html(body));
  if (origin !== "") htmlParts.push(`<i>${html(origin)}</i>`);
  return {
    msgtype: `m.${msgtype}`,
    body: fitText(plainText, encodeText, { jsonBytes: MATRIX_LIMITS.plainJsonBytes }),
    format: "org.matrix.custom.html",
    formatted_body: fitText(htmlParts.join("<br>"), (t) => t, {
      jsonBytes: MATRIX_LIMITS.htmlJsonBytes,
    }),
    "m.mentions": {},
  };
}

// PUT with a transaction id made of the notification and the room: a retry of the same
// notification is the same transaction, which the server does not post twice.
function build(notification: Notification, options: MatrixOptions): ChatRequest {
  const { server, token, roomId } = target(options);
  const txnId = `hn-${fnv1a64(`${notification.id} ${roomId}`)}`;
  const path = `/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/send/m.room.message/${txnId}`;
  return {
    url: `${server}${path}`,
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: content(notification, options.msgtype ?? "notice"),
  };
}

// 200 `{"event_id"}`; errors are `{"errcode","error"}`, a 429 with `retry_after_ms`.
function read(response: HttpResponse, sinkName: string) {
  const json = parseJson(response.text);
  const { status } = response;
  const base = { sinkName, service: "Matrix", status, said: shortText(json?.errcode) };
  if (status === 429) {
    const ms = typeof json?.retry_after_ms === "number" ? json.retry_after_ms : 5_000;
    const hint = `rate limited; it will be retried in ${Math.ceil(ms / 1000)} s`;
    reject({ ...base, hint, retryable: true, retryAfterMs: ms });
  }
  if (status === 401) {
    reject({ ...base, hint: "the access token was refused: make a new one", retryable: false });
  }
  if (status === 403 || status === 404) {
    const hint = "check roomId, and that the token's account joined the room and may post";
    reject({ ...base, hint, retryable: false });
  }
  assertSuccess(response, { sinkName, service: "Matrix" });
  return { messageId: idOf(json?.event_id) };
}

// Everything hook-notify knows about a Matrix room: options, Apprise form, request, answer.
export const matrix = defineChatService<MatrixOptions>({
  id: "matrix",
  name: "Matrix",
  shape: () => ({
    url: urlOption(
      APPRISE,
      "https://HOMESERVER",
      "Homeserver URL with accessToken and roomId, or the Apprise form matrixs://ACCESS_TOKEN@HOST/!ROOM_ID:SERVER.",
    ),
    accessToken: z.optional(
      z
        .string()
        .check(
          z.minLength(1),
          z.meta({ secret: true, description: "Access token of the account that posts. Secret." }),
        ),
    ),
    roomId: z.optional(
      z
        .string()
        .check(
          z.regex(ROOM_ID, "expected a room id like !abc123:example.org"),
          z.describe("Room id (!…:server; Settings → Advanced in Element)."),
        ),
    ),
    msgtype: z.optional(
      z
        .enum(["notice", "text"])
        .check(z.describe('"notice" (m.notice, for bots) or "text" (m.text).')),
    ),
  }),
  refine: (options) =>
    isHttpUrl(options.url) && (options.accessToken === undefined || options.roomId === undefined)
      ? {
          path: "url",
          message: `the homeserver URL needs accessToken and roomId (or ${APPRISE.form})`,
        }
      : undefined,
  apprise: APPRISE,
  build,
  // whoami proves the access token and sends nothing (spec: GET /_matrix/client/v3/account/whoami).
  probe: (options) => {
    const { server, token } = target(options);
    const headers = { authorization: `Bearer ${token}` };
    return { url: `${server}/_matrix/client/v3/account/whoami`, method: "GET", headers, body: "" };
  },
  read,
  escape: escapeMatrixHtml,
  describe: (options) => {
    const { server, roomId } = target(options);
    return `matrix room ${roomId} on ${redactUrl(server)}`;
  },
  secretParts: (options) => [target(options).token],
  example: "matrixs://syt_token@matrix.example.org/!room:example.org",
  starter: { name: "MATRIX_URL", what: "matrixs://ACCESS_TOKEN@HOST/!ROOM_ID:SERVER" },
});
