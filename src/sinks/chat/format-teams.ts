// Teams Workflows webhook ("When a Teams webhook request is received"): https://learn.microsoft.com/en-us/connectors/teams/
import type { Level, Notification } from "../../core/notification.js";
import type { ChatRequest } from "./service.js";
import type { TeamsOptions } from "./teams.js";
import { describeOrigin, encodeText, fitText, levelEmoji } from "./text.js";

// Teams rejects messages above ~28 KB ("Request entity too large",
// https://learn.microsoft.com/en-us/connectors/teams/#limits). Budgets in JSON bytes: body 24,000,
// title and origin 1,000 each (titles have no documented limit), so the card stays below 28 KB.
export const TEAMS_LIMITS = { payloadBytes: 28_000, bodyJsonBytes: 24_000, lineJsonBytes: 1000 };

// Adaptive Card TextBlock colours: Attention is red, Warning amber, Good green, Accent blue.
const COLOURS: Record<Level, string> = {
  failure: "Attention",
  attention: "Warning",
  done: "Good",
  info: "Accent",
  limit: "Warning",
};

// Builds the Workflows request: a `message` with one Adaptive Card 1.4 attachment (a bare `text`
// body makes the flow fail). The flow answers 202 Accepted and posts the card asynchronously.
// TextBlock text is Markdown with links (`[words](url)`): mentions and links are broken.
export function formatTeams(notification: Notification, options: TeamsOptions): ChatRequest {
  const { title, body, level } = notification;
  const blocks: unknown[] = [
    {
      type: "TextBlock",
      text: fitText(`${levelEmoji(level)} ${title}`, encodeText, {
        jsonBytes: TEAMS_LIMITS.lineJsonBytes,
      }),
      size: "Medium",
      weight: "Bolder",
      color: COLOURS[level],
      wrap: true,
    },
  ];
  if (body !== "") {
    // TextBlock text is Markdown: a single "\n" shows as a space, only a blank line breaks
    // (microsoft/AdaptiveCards#5538). Lines of the body stay lines.
    const text = fitText(body, (t) => encodeText(t).replace(/\n+/g, "\n\n"), {
      jsonBytes: TEAMS_LIMITS.bodyJsonBytes,
    });
    blocks.push({ type: "TextBlock", text, wrap: true });
  }
  const origin = describeOrigin(notification);
  if (origin !== "") {
    const text = fitText(origin, encodeText, { jsonBytes: TEAMS_LIMITS.lineJsonBytes });
    blocks.push({ type: "TextBlock", text, isSubtle: true, size: "Small", wrap: true });
  }
  const card = {
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    type: "AdaptiveCard",
    version: "1.4",
    msteams: { width: "Full" },
    body: blocks,
  };
  const attachment = {
    contentType: "application/vnd.microsoft.card.adaptive",
    contentUrl: null,
    content: card,
  };
  return {
    url: options.url,
    headers: { "content-type": "application/json" },
    body: { type: "message", attachments: [attachment] },
  };
}
