// Discord Execute Webhook: https://github.com/discord/discord-api-docs/blob/main/docs/resources/webhook.mdx
import type { Level, Notification } from "../../core/notification.js";
import type { ChatRequest } from "./service.js";
import type { DiscordOptions } from "./discord.js";
import { describeOrigin, encodeText, fitText, levelEmoji } from "./text.js";

// content ≤ 2000 (webhook.mdx); embed description ≤ 4096, footer ≤ 2048 and ≤ 6000 characters across
// all embeds (docs/resources/message.mdx "Embed Limits"). The footer is kept short so that
// description + footer always stays under the 6000 total.
export const DISCORD_LIMITS = { content: 2000, description: 4096, footer: 256, embedsTotal: 6000 };

// Embed colours (decimal RGB): red for failure, amber for attention, green for done, blurple for
// a notice, orange for a usage limit.
const COLOURS: Record<Level, number> = {
  failure: 0xed4245,
  attention: 0xfee75c,
  done: 0x57f287,
  info: 0x5865f2,
  limit: 0xf0883e,
};

// Builds the webhook request: the title as content (it shows in push notifications), the body in
// a coloured embed, both Markdown with mentions and masked links (`[words](url)`) broken.
// `wait=true` makes Discord report a message it could not save;
// `allowed_mentions.parse = []` stops any ping even if mention syntax slipped through.
export function formatDiscord(notification: Notification, options: DiscordOptions): ChatRequest {
  const { title, body, level } = notification;
  const embed: Record<string, unknown> = {
    color: COLOURS[level],
    timestamp: notification.timestamp,
  };
  if (body !== "") {
    embed.description = fitText(body, encodeText, { chars: DISCORD_LIMITS.description });
  }
  const origin = describeOrigin(notification);
  if (origin !== "") {
    embed.footer = { text: fitText(origin, encodeText, { chars: DISCORD_LIMITS.footer }) };
  }
  const payload: Record<string, unknown> = {
    content: fitText(`${levelEmoji(level)} ${title}`, encodeText, {
      chars: DISCORD_LIMITS.content,
    }),
    embeds: [embed],
    allowed_mentions: { parse: [] },
  };
  if (options.username !== undefined) payload.username = options.username;
  if (options.avatarUrl !== undefined) payload.avatar_url = options.avatarUrl;
  const url = new URL(options.url);
  url.searchParams.set("wait", "true");
  return { url: url.href, headers: { "content-type": "application/json" }, body: payload };
}
