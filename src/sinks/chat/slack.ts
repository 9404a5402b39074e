// Slack incoming webhooks: https://api.slack.com/messaging/webhooks
import { redactUrl } from "../../redact.js";
import { assertSuccess, type HttpResponse } from "../../http/post.js";
import { explainGoneWebhook, reject } from "./answer.js";
import { formatSlack } from "./format-slack.js";
import { defineChatService, type AppriseForm } from "./service.js";
import { encodeSlackMrkdwn } from "./text.js";
import { splitUrl, urlOption } from "./url-option.js";

/** A `chat` entry with "service": "slack", as validated (the url may be the Apprise form). */
export interface SlackOptions {
  service: "slack";
  url: string;
}

// Slack's plain-text error codes for incoming webhooks and what a person should do about them
// (https://api.slack.com/changelog/2016-05-17-changes-to-errors-for-incoming-webhooks).
const HINTS = new Map<string, string>(
  Object.entries({
    channel_is_archived: "the channel is archived: unarchive it or create a new webhook",
    channel_not_found: "the channel is gone: create a new webhook",
    no_service: "the webhook was removed or disabled: create a new one",
    no_team: "the workspace is gone: create a new webhook",
    team_disabled: "the workspace is disabled: create a new webhook",
    action_prohibited: "an admin restricted posting to this channel",
    invalid_token: "the webhook was revoked: create a new one",
    invalid_payload: "Slack rejected the message format; please report it",
  }),
);

// Apprise `slack://TOKEN_A/TOKEN_B/TOKEN_C` is the webhook https://hooks.slack.com/services/A/B/C
// (a bot name before "@" is accepted and ignored: webhooks post as their app).
function parseApprise(value: string): Partial<SlackOptions> | undefined {
  const url = splitUrl(value);
  const tokens = url ? [url.host, ...url.segments] : [];
  if (tokens.length !== 3 || !tokens.every((token) => /^[A-Za-z0-9]+$/.test(token))) {
    return undefined;
  }
  return { url: `https://hooks.slack.com/services/${tokens.join("/")}` };
}

// 4xx with a bare error code (`channel_is_archived`, …): name it and say what to do.
function read(response: HttpResponse, sinkName: string) {
  const { status } = response;
  const code = response.text.trim();
  const hint = HINTS.get(code);
  if (status >= 400 && status < 500 && status !== 408 && status !== 429 && hint !== undefined) {
    reject({ sinkName, service: "Slack", status, said: code, hint, retryable: false });
  }
  assertSuccess(response, { sinkName, service: "Slack" });
  return {};
}

const APPRISE: AppriseForm<SlackOptions> = {
  schemes: ["slack"],
  form: "slack://TOKEN_A/TOKEN_B/TOKEN_C",
  parse: parseApprise,
};

// Everything hook-notify knows about a Slack incoming webhook: options, Apprise form, request, answer.
export const slack = defineChatService<SlackOptions>({
  id: "slack",
  name: "Slack",
  shape: () => ({
    url: urlOption(
      APPRISE,
      "https://hooks.slack.com/services/…",
      "Slack incoming-webhook URL, or its Apprise form slack://TOKEN_A/TOKEN_B/TOKEN_C.",
    ),
  }),
  apprise: APPRISE,
  build: formatSlack,
  read,
  escape: encodeSlackMrkdwn,
  describe: (options) => redactUrl(options.url),
  example: "https://hooks.slack.com/services/T0/B0/x",
  starter: { name: "SLACK_WEBHOOK_URL", what: "the Slack webhook URL" },
  explain: explainGoneWebhook("Slack"),
});
