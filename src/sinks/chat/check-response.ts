// Service-specific readings of a chat webhook's answer, applied before the generic status check.
import { HookNotifyError } from "../../errors.js";
import type { HttpResponse } from "../../http/post.js";
import type { ChatService } from "./index.js";

// Slack's plain-text error codes for incoming webhooks and what a person should do about them
// (https://api.slack.com/changelog/2016-05-17-changes-to-errors-for-incoming-webhooks).
const SLACK_HINTS = new Map<string, string>(
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

// Throws for answers that need more than the status line: Discord's deleted webhooks and
// `retry_after`, Slack's error codes. Everything else is left to assertSuccess.
export function checkServiceResponse(
  service: ChatService,
  response: HttpResponse,
  sinkName: string,
): void {
  if (service === "discord") checkDiscord(response, sinkName);
  if (service === "slack") checkSlack(response, sinkName);
}

// Discord: 404 means the webhook was deleted for good (and retries count toward an IP ban); a
// 429 carries the exact wait as `retry_after` seconds in its JSON body.
function checkDiscord(response: HttpResponse, sinkName: string): void {
  if (response.status === 404) {
    throw new HookNotifyError(
      "SINK_HTTP_STATUS",
      `${sinkName}: Discord answered 404: the webhook was deleted; create a new one in the channel's Integrations settings.`,
      { sink: sinkName, retryable: false, status: 404, service: "Discord" },
    );
  }
  if (response.status !== 429) return;
  const seconds = readRetryAfterSeconds(response.text);
  const header = Number(response.headers["retry-after"]);
  const waitSeconds = Math.max(seconds ?? 0, Number.isFinite(header) ? header : 0);
  throw new HookNotifyError(
    "SINK_HTTP_STATUS",
    `${sinkName}: Discord answered 429: rate limited; it will be retried in ${waitSeconds.toFixed(1)} s.`,
    {
      sink: sinkName,
      retryable: true,
      retryAfterMs: Math.ceil(waitSeconds * 1000),
      status: 429,
      service: "Discord",
    },
  );
}

// `{"message": "...", "retry_after": 0.5, "global": false}` → 0.5; anything else → undefined.
function readRetryAfterSeconds(text: string): number | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || !("retry_after" in parsed))
      return undefined;
    const value = parsed.retry_after;
    return typeof value === "number" && value >= 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

// Slack answers 4xx with a bare error code (`channel_is_archived`, …): name it and say what to do.
function checkSlack(response: HttpResponse, sinkName: string): void {
  const { status } = response;
  if (status < 400 || status >= 500 || status === 408 || status === 429) return;
  const code = response.text.trim();
  const hint = SLACK_HINTS.get(code);
  if (hint === undefined) return;
  throw new HookNotifyError(
    "SINK_HTTP_STATUS",
    `${sinkName}: Slack answered ${status} ${code}: ${hint}.`,
    { sink: sinkName, retryable: false, status, service: "Slack" },
  );
}
