// The `chat` sink: one webhook message in the native format of Slack, Discord, Teams, Google Chat,
// Mattermost or ntfy. Formatting is pure (format-*.ts); this file picks the builder and sends.
import * as z from "../../zod.js";
import { assertSuccess, postRequest } from "../../http/post.js";
import type { Notification } from "../../core/notification.js";
import { redactUrl } from "../../redact.js";
import { defineSink } from "../sink.js";
import { checkServiceResponse } from "./check-response.js";
import { formatDiscord } from "./format-discord.js";
import { formatGoogleChat } from "./format-googlechat.js";
import { formatMattermost } from "./format-mattermost.js";
import { formatNtfy } from "./format-ntfy.js";
import { formatSlack } from "./format-slack.js";
import { formatTeams } from "./format-teams.js";

/** The chat services this sink speaks. */
export const CHAT_SERVICES = [
  "slack",
  "discord",
  "teams",
  "googlechat",
  "mattermost",
  "ntfy",
] as const;
export type ChatService = (typeof CHAT_SERVICES)[number];

// Names for messages ("Discord answered 404 …").
export const SERVICE_NAMES: Record<ChatService, string> = {
  slack: "Slack",
  discord: "Discord",
  teams: "Microsoft Teams",
  googlechat: "Google Chat",
  mattermost: "Mattermost",
  ntfy: "ntfy",
};

// init's starters: the variable each service's webhook URL is read from.
const CHAT_SECRETS: Record<ChatService, { name: string; what: string }> = {
  slack: { name: "SLACK_WEBHOOK_URL", what: "the Slack webhook URL" },
  discord: { name: "DISCORD_WEBHOOK_URL", what: "the Discord webhook URL" },
  teams: { name: "TEAMS_WEBHOOK_URL", what: "the Teams Workflows webhook URL" },
  googlechat: { name: "GOOGLE_CHAT_WEBHOOK_URL", what: "the Google Chat webhook URL" },
  mattermost: { name: "MATTERMOST_WEBHOOK_URL", what: "the Mattermost webhook URL" },
  ntfy: { name: "NTFY_URL", what: "the ntfy topic URL (https://ntfy.sh/<topic>)" },
};

const isService = (name: string | undefined): name is ChatService =>
  (CHAT_SERVICES as readonly (string | undefined)[]).includes(name);

/** Options of a `chat` entry in the config file. */
function optionsSchema() {
  return z.strictObject({
    service: z.enum(CHAT_SERVICES).check(z.describe("Which chat service the url belongs to.")),
    url: z.url({ protocol: /^https?$/ }).check(
      z.meta({
        secret: true,
        description:
          "Webhook URL from the service (for ntfy the topic URL, e.g. https://ntfy.sh/mytopic). Secret.",
      }),
    ),
    username: z.optional(
      z
        .string()
        .check(
          z.minLength(1),
          z.maxLength(80),
          z.describe(
            "Discord and Mattermost: name shown as the sender (Mattermost must allow it).",
          ),
        ),
    ),
    avatarUrl: z.optional(
      z
        .url({ protocol: /^https?$/ })
        .check(z.describe("Discord and Mattermost: picture shown as the sender.")),
    ),
    priority: z.optional(
      z
        .int()
        .check(
          z.gte(1),
          z.lte(5),
          z.describe("ntfy: fixed priority 1-5 instead of 5 failure / 4 attention / 3 done."),
        ),
    ),
    tags: z.optional(
      z
        .array(z.string().check(z.minLength(1)))
        .check(z.describe("ntfy: extra tags or emoji names.")),
    ),
    token: z.optional(
      z.string().check(
        z.minLength(1),
        z.meta({
          secret: true,
          description: "ntfy: access token (tk_…), sent as Bearer. Secret.",
        }),
      ),
    ),
  });
}
export type ChatOptions = z.infer<ReturnType<typeof optionsSchema>>;

/** The request a builder produces; `body` is the JSON value to send. */
export interface ChatRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

const BUILDERS: Record<ChatService, (n: Notification, o: ChatOptions) => ChatRequest> = {
  slack: formatSlack,
  discord: formatDiscord,
  teams: formatTeams,
  googlechat: formatGoogleChat,
  mattermost: formatMattermost,
  ntfy: formatNtfy,
};

// The exact request for one notification, secrets included: what `send` posts.
export function buildChatRequest(notification: Notification, options: ChatOptions): ChatRequest {
  return BUILDERS[options.service](notification, options);
}

// The same request with its secrets masked (URL path and query, token, ntfy topic): for --dry-run.
export function renderChatRequest(notification: Notification, options: ChatOptions): unknown {
  const request = buildChatRequest(notification, options);
  const headers = { ...request.headers };
  if (headers.authorization !== undefined) headers.authorization = "Bearer …";
  const body =
    options.service === "ntfy" ? { ...(request.body as object), topic: "…" } : request.body;
  return { method: "POST", url: redactUrl(request.url), headers, body };
}

// The sink: posts JSON, then reads the answer the way each service documents it.
export const chat = defineSink<ChatOptions>({
  type: "chat",
  options: optionsSchema,
  remote: true,
  describeTarget: (options) => redactUrl(options.url),
  check: async (entry, ctx) =>
    (await import("../../http/reachable-check.js")).checkReachable(entry, ctx.deps.env),
  starters: CHAT_SERVICES.map((service) => ({
    choice: service,
    secret: CHAT_SECRETS[service],
    entry: (url) => ({ type: "chat", service, url }),
  })),
  // A chat webhook that is gone is made again in the service's settings (ntfy has no webhooks).
  explain: ({ code, status, service }) =>
    code === "SINK_HTTP_STATUS" &&
    (status === 404 || status === 410) &&
    isService(service) &&
    service !== "ntfy"
      ? `the webhook URL was revoked or is wrong; create a new one in ${SERVICE_NAMES[service]}'s settings`
      : undefined,
  render: (notification, options) => renderChatRequest(notification, options),
  async send(notification, options, ctx) {
    const request = buildChatRequest(notification, options);
    const response = await postRequest(
      { url: request.url, headers: request.headers, body: JSON.stringify(request.body) },
      { signal: ctx.signal, env: ctx.deps.env, sinkName: ctx.sinkName },
    );
    checkServiceResponse(options.service, response, ctx.sinkName);
    assertSuccess(response, { sinkName: ctx.sinkName, service: SERVICE_NAMES[options.service] });
  },
});
