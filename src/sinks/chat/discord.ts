// Discord Execute Webhook: https://github.com/discord/discord-api-docs/blob/main/docs/resources/webhook.mdx
import * as z from "../../zod.js";
import { assertSuccess, type HttpResponse } from "../../http/post.js";
import { redactUrl } from "../../redact.js";
import { explainGoneWebhook, idOf, parseJson, reject } from "./answer.js";
import { formatDiscord } from "./format-discord.js";
import { defineChatService, type AppriseForm } from "./service.js";
import { encodeText } from "./text.js";
import { splitUrl, urlOption } from "./url-option.js";

/** A `chat` entry with "service": "discord", as validated (the url may be the Apprise form). */
export interface DiscordOptions {
  service: "discord";
  url: string;
  username?: string | undefined;
  avatarUrl?: string | undefined;
}

// Apprise `discord://[BOTNAME@]WEBHOOK_ID/WEBHOOK_TOKEN`: the webhook URL, the name as username.
function parseApprise(value: string): Partial<DiscordOptions> | undefined {
  const url = splitUrl(value);
  if (!url || url.segments.length !== 1 || !/^\d+$/.test(url.host)) return undefined;
  const [token = ""] = url.segments;
  if (!/^[\w-]+$/.test(token)) return undefined;
  const name = url.userinfo;
  return {
    url: `https://discord.com/api/webhooks/${url.host}/${token}`,
    ...(name ? { username: name } : {}),
  };
}

// 404: the webhook was deleted for good (retries count toward an IP ban). 429: the exact wait is
// `retry_after` seconds in the JSON body. With wait=true a 200 carries the message and its id.
function read(response: HttpResponse, sinkName: string) {
  const { status } = response;
  if (status === 404) {
    const hint = "the webhook was deleted; create a new one in the channel's Integrations settings";
    reject({ sinkName, service: "Discord", status, hint, retryable: false });
  }
  if (status === 429) {
    const seconds = parseJson(response.text)?.retry_after;
    const header = Number(response.headers["retry-after"]);
    const wait = Math.max(
      typeof seconds === "number" && seconds >= 0 ? seconds : 0,
      Number.isFinite(header) ? header : 0,
    );
    const hint = `rate limited; it will be retried in ${wait.toFixed(1)} s`;
    const retryAfterMs = Math.ceil(wait * 1000);
    reject({ sinkName, service: "Discord", status, hint, retryable: true, retryAfterMs });
  }
  assertSuccess(response, { sinkName, service: "Discord" });
  return { messageId: idOf(parseJson(response.text)?.id) };
}

const APPRISE: AppriseForm<DiscordOptions> = {
  schemes: ["discord"],
  form: "discord://WEBHOOK_ID/WEBHOOK_TOKEN",
  parse: parseApprise,
};

// Everything hook-notify knows about a Discord webhook: options, Apprise form, request, answer.
export const discord = defineChatService<DiscordOptions>({
  id: "discord",
  name: "Discord",
  shape: () => ({
    url: urlOption(
      APPRISE,
      "https://discord.com/api/webhooks/…",
      "Discord webhook URL, or its Apprise form discord://WEBHOOK_ID/WEBHOOK_TOKEN.",
    ),
    username: z.optional(
      z.string().check(z.minLength(1), z.maxLength(80), z.describe("Name shown as the sender.")),
    ),
    avatarUrl: z.optional(
      z.url({ protocol: /^https?$/ }).check(z.describe("Picture shown as the sender.")),
    ),
  }),
  apprise: APPRISE,
  build: formatDiscord,
  // GET on a webhook URL answers its details (200) without posting; a deleted one answers 404.
  probe: (options) => ({ url: options.url, method: "GET", headers: {}, body: "" }),
  read,
  escape: encodeText,
  describe: (options) => redactUrl(options.url),
  example: "https://discord.com/api/webhooks/1/x",
  starter: { name: "DISCORD_WEBHOOK_URL", what: "the Discord webhook URL" },
  explain: explainGoneWebhook("Discord"),
});
