// Google Chat incoming webhook, text message: https://developers.google.com/workspace/chat/format-messages
import type { Notification } from "../../core/notification.js";
import type { ChatRequest } from "./service.js";
import type { GoogleChatOptions } from "./googlechat.js";
import { describeOrigin, encodeText, fitText, jsonBytes, levelEmoji } from "./text.js";

// A message, text and cards included, is at most 32,000 bytes
// (https://developers.google.com/workspace/chat/api/reference/rest/v1/spaces.messages/create).
// The text gets 31,000 JSON bytes; the envelope `{"text":""}` needs 11.
export const GOOGLE_CHAT_LIMITS = {
  messageBytes: 32_000,
  textJsonBytes: 31_000,
  titleJsonBytes: 1000,
};

// Builds the webhook request: a text message in Chat syntax (`*bold*` title with the level emoji,
// the body, the origin in `_italics_`). `<users/all>` would mention everyone, so the mention
// breaker puts a zero-width space after `<`, and so does the link breaker for `<url|words>`
// links; Markdown links (`[words](url)`, for apps on Markdown syntax) are broken too. Chat
// documents no escaping.
export function formatGoogleChat(
  notification: Notification,
  options: GoogleChatOptions,
): ChatRequest {
  const { title, body, level } = notification;
  const heading = fitText(title, encodeText, {
    jsonBytes: GOOGLE_CHAT_LIMITS.titleJsonBytes,
  });
  const origin = fitText(describeOrigin(notification), encodeText, {
    jsonBytes: GOOGLE_CHAT_LIMITS.titleJsonBytes,
  });
  const head = `${levelEmoji(level)} *${heading}*`;
  const tail = origin === "" ? "" : `\n_${origin}_`;
  const budget =
    GOOGLE_CHAT_LIMITS.textJsonBytes - jsonBytes(head) - jsonBytes(tail) - jsonBytes("\n");
  const middle = body === "" ? "" : `\n${fitText(body, encodeText, { jsonBytes: budget })}`;
  return {
    url: options.url,
    headers: { "content-type": "application/json; charset=UTF-8" },
    body: { text: `${head}${middle}${tail}` },
  };
}
