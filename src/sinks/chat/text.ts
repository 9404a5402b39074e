// Pure text helpers shared by the chat payload builders: fitting, mention breaking, escaping.
import { adapterFor } from "../../clients/index.js";
import { Buffer } from "node:buffer";
import type { Level, Notification } from "../../core/notification.js";
import { once } from "../../once.js";

export const ELLIPSIS = "…";
const ZERO_WIDTH_SPACE = "\u200B";

/** A service's length limit for one field, measured on the text as it will be sent. */
export interface TextLimit {
  /** UTF-16 code units (never fewer than code points, so it is safe whichever a service counts). */
  chars?: number;
  /** UTF-8 bytes of the text. */
  bytes?: number;
  /** UTF-8 bytes of the text once JSON-encoded, quotes excluded (escapes like \n count). */
  jsonBytes?: number;
}

// True when the already-encoded text is within every bound of the limit.
function isWithin(encoded: string, limit: TextLimit): boolean {
  if (limit.chars !== undefined && encoded.length > limit.chars) return false;
  if (limit.bytes !== undefined && Buffer.byteLength(encoded) > limit.bytes) return false;
  return limit.jsonBytes === undefined || jsonBytes(encoded) <= limit.jsonBytes;
}

// UTF-8 bytes a string takes inside a JSON document, quotes excluded.
export function jsonBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text)) - 2;
}

// Encodes text for a service and trims it to the limit, ending with "…". The cut happens on the
// raw text at a code point, before encoding, so it never splits a surrogate pair, an entity or a
// broken mention.
export function fitText(text: string, encode: (raw: string) => string, limit: TextLimit): string {
  const whole = encode(text);
  if (isWithin(whole, limit)) return whole;
  const points = Array.from(text);
  const withEllipsis = (count: number) =>
    encode(points.slice(0, count).join("").trimEnd() + ELLIPSIS);
  let low = 0;
  let high = points.length - 1;
  let best = isWithin(withEllipsis(0), limit) ? withEllipsis(0) : "";
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const candidate = withEllipsis(middle);
    if (isWithin(candidate, limit)) {
      best = candidate;
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  return best;
}

// `@everyone`, `@here`, `@channel`, `@all` anywhere, and `@name` at the start of a word (not in
// e-mail addresses or URL paths like https://github.com/@scope).
// Built on first use (once): a regular expression with the u flag costs V8 1-2 M instructions to
// make (its Unicode classes are worked out then), which every worker start paid at module load.
const atMention = once(
  () => /@(?=(?:everyone|here|channel|all)\b)|(?<![\p{L}\p{N}_/])@(?=[\p{L}\p{N}_])/giu,
);
// Slack `<!channel>`/`<@U1>`, Discord `<@123>`/`<@&7>`, Google Chat `<users/all>`, Teams `<at>`.
const angleMention = once(() => /<(?=[!@]|users\/|at>)/giu);

// Agent text must never ping people: a zero-width space after `@` or `<` keeps the text readable
// while the service no longer sees mention syntax.
export function breakMentions(text: string): string {
  return text
    .replace(atMention(), `@${ZERO_WIDTH_SPACE}`)
    .replace(angleMention(), `<${ZERO_WIDTH_SPACE}`);
}

// Markdown links need `]` right before `(` (inline, and images), `[` (reference) or `:` (a
// definition). A zero-width space there leaves the text as written: the URL stays in plain view,
// never hidden behind words like "Re-authenticate".
const LINK_BRACKET = /\](?=[([:])/g;
// Slack's `<url|words>` link form, which Google Chat speaks natively and Mattermost's webhooks
// turn into a Markdown link (their pattern is `<([^\n<|>]+)\|([^\n>]+)>`).
const ANGLE_LINK = /<(?=[^\n<|>]*\|[^\n>]*>)/g;

// Agent text is text in every service: no mention, and no link whose words hide its URL. A
// zero-width space after `<` keeps `<url|words>` from being a link where the URL must follow `<`.
export function encodeText(text: string): string {
  return breakLinks(breakMentions(text)).replace(ANGLE_LINK, `<${ZERO_WIDTH_SPACE}`);
}

// Mattermost: its webhook pattern for `<url|words>` lets anything but `\n < | >` lead the URL,
// so `<` becomes `&lt;`, which its Markdown shows as `<`.
export function encodeMattermostText(text: string): string {
  return breakLinks(breakMentions(text)).replace(ANGLE_LINK, "&lt;");
}

function breakLinks(text: string): string {
  return text.replace(LINK_BRACKET, `]${ZERO_WIDTH_SPACE}`);
}

// Slack mrkdwn: only `&`, `<` and `>` are control characters and must become entities.
export function escapeSlack(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

// Slack mrkdwn text: entities first (so `<!channel>` and `<url|words>` lose their `<`), then `@`
// and Markdown-link breaks (mrkdwn ignores `[words](url)`; Slack's newer Markdown does not).
export function encodeSlackMrkdwn(text: string): string {
  return breakLinks(breakMentions(escapeSlack(text)));
}

// A failure has to look like one in every service, even where there is no colour.
export function levelEmoji(level: Level): string {
  switch (level) {
    case "failure":
      return "🚨";
    case "attention":
      return "🔔";
    case "done":
      return "✅";
    case "info":
      return "ℹ️";
    case "limit":
      return "⏳";
  }
}

// The small print under a message: where it came from (project · client · event · session).
export function describeOrigin(notification: Notification): string {
  const client = notification.client ? adapterFor(notification.client).name : undefined;
  const parts = [notification.project, client, notification.event, notification.sessionTitle];
  return parts.filter((part): part is string => part !== undefined && part !== "").join(" · ");
}
