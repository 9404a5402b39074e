// Mattermost incoming webhook with message attachments: https://developers.mattermost.com/integrate/reference/message-attachments/
import type { Level, Notification } from "../../core/notification.js";
import type { ChatRequest } from "./service.js";
import type { MattermostOptions } from "./mattermost.js";
import { describeOrigin, encodeMattermostText, fitText, levelEmoji } from "./text.js";

// A post holds at most 16,383 characters on Mattermost ≥ 5.0
// (https://developers.mattermost.com/integrate/webhooks/incoming/); attachment text is held to
// the same bound. Title, fallback and footer are short lines (no separate documented limit).
export const MATTERMOST_LIMITS = { text: 16_383, title: 250, fallback: 500, footer: 500 };

// Attachment border colours: red for failure, amber for attention, green for done, blue for a
// notice, orange for a usage limit.
const COLOURS: Record<Level, string> = {
  failure: "#D24B4E",
  attention: "#FFBC1F",
  done: "#3DB887",
  info: "#1C58D9",
  limit: "#F0883E",
};

// Builds the webhook request: one coloured attachment (title, Markdown body, origin footer) and a
// plain `fallback` for notifications. Mattermost expands `@channel`, `@all`, `@here`, `@name`
// and the Slack forms `<!channel>`, so every one of them is broken; so are Markdown links and the
// Slack `<url|words>` links its webhooks translate (in the text, where they are translated).
export function formatMattermost(
  notification: Notification,
  options: MattermostOptions,
): ChatRequest {
  const { title, body, level } = notification;
  const heading = `${levelEmoji(level)} ${title}`;
  const attachment: Record<string, unknown> = {
    fallback: fitText(heading, encodeMattermostText, { chars: MATTERMOST_LIMITS.fallback }),
    color: COLOURS[level],
    title: fitText(heading, encodeMattermostText, { chars: MATTERMOST_LIMITS.title }),
  };
  if (body !== "") {
    attachment.text = fitText(body, encodeMattermostText, { chars: MATTERMOST_LIMITS.text });
  }
  const origin = describeOrigin(notification);
  if (origin !== "") {
    attachment.footer = fitText(origin, encodeMattermostText, { chars: MATTERMOST_LIMITS.footer });
  }
  const payload: Record<string, unknown> = { attachments: [attachment] };
  if (options.username !== undefined) payload.username = options.username;
  if (options.avatarUrl !== undefined) payload.icon_url = options.avatarUrl;
  return { url: options.url, headers: { "content-type": "application/json" }, body: payload };
}
