// Slack incoming webhook, blocks + fallback `text`: https://api.slack.com/messaging/webhooks
import type { Notification } from "../../core/notification.js";
import type { ChatRequest } from "./service.js";
import type { SlackOptions } from "./slack.js";
import { describeOrigin, encodeSlackMrkdwn, encodeText, fitText, levelEmoji } from "./text.js";

// Header block plain_text ≤ 150 chars, section/context text ≤ 3000 chars
// (https://docs.slack.dev/reference/block-kit/blocks/header-block, …/section-block). Slack cuts
// `text` above 40,000 chars and advises ≤ 4,000 for the notification fallback.
export const SLACK_LIMITS = { header: 150, section: 3000, context: 3000, fallback: 4000 };

// Builds the incoming-webhook request: a header, the body as mrkdwn and a context line, plus `text`
// as the notification fallback. Only `& < >` are escaped; `@` mentions are broken.
export function formatSlack(notification: Notification, options: SlackOptions): ChatRequest {
  const { title, body, level } = notification;
  const heading = fitText(`${levelEmoji(level)} ${title}`, encodeText, {
    chars: SLACK_LIMITS.header,
  });
  const blocks: unknown[] = [
    { type: "header", text: { type: "plain_text", text: heading, emoji: true } },
  ];
  if (body !== "") {
    const section = fitText(body, encodeSlackMrkdwn, { chars: SLACK_LIMITS.section });
    blocks.push({ type: "section", text: { type: "mrkdwn", text: section } });
  }
  const origin = fitText(describeOrigin(notification), encodeSlackMrkdwn, {
    chars: SLACK_LIMITS.context,
  });
  if (origin !== "") {
    blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: origin }] });
  }
  const fallbackText = body === "" ? title : `${title}\n${body}`;
  const text = fitText(`${levelEmoji(level)} ${fallbackText}`, encodeSlackMrkdwn, {
    chars: SLACK_LIMITS.fallback,
  });
  return {
    url: options.url,
    headers: { "content-type": "application/json" },
    body: { text, blocks },
  };
}
