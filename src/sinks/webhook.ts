// Generic JSON webhook: a versioned body, custom headers, Standard Webhooks signatures.
import * as z from "../zod.js";
import { assertSuccess, postRequest, type HttpRequest } from "../http/post.js";
import { isValidSecret, signWebhook, webhookId } from "../http/sign.js";
import { userAgent } from "../http/user-agent.js";
import type { Notification } from "../core/notification.js";
import { redactUrl } from "../redact.js";
import { defineSink } from "./sink.js";

const MASK = "***";
const OWN_HEADERS = [
  "content-type",
  "user-agent",
  "idempotency-key",
  "webhook-id",
  "webhook-timestamp",
  "webhook-signature",
];

// Apprise json:// URLs carry headers and payload fields as `?+Name=…`, `?-name=…`, `?:key=…`.
const APPRISE_ARGUMENT = /^jsons?:\/\/[^?#]*\?(?:[^#]*&)?[-+:]/i;

// Apprise's `json://HOST/PATH` is plain http and `jsons://` https; the rest is kept as written.
export function endpointOf(url: string): string {
  return url.replace(/^json(s?):\/\//i, "http$1://");
}

function optionsSchema() {
  const secret = z.meta({ secret: true });
  return z.strictObject({
    url: z.url({ protocol: /^(https?|jsons?)$/ }).check(
      z.refine(
        (url) => !APPRISE_ARGUMENT.test(url),
        "Apprise's +header, -param and :payload arguments are not read: use headers instead",
      ),
      secret,
      z.describe(
        "The receiver's URL (http or https, or Apprise's json:// and jsons:// for them); the JSON body is documented in docs/webhook.md. Secret: it may carry a token.",
      ),
    ),
    headers: z.optional(
      z
        .record(
          z.string().check(z.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "Invalid header name")),
          z
            .string()
            .check(z.regex(/^[^\r\n\0]*$/, "Header values cannot contain line breaks"), secret),
        )
        .check(
          z.describe(
            "Extra request headers, e.g. Authorization; content-type, user-agent, idempotency-key and webhook-* are set by hook-notify. Values are secrets.",
          ),
        ),
    ),
    secret: z.optional(
      z
        .string()
        .check(
          z.refine(isValidSecret, "Expected whsec_ followed by base64 of 24-64 bytes"),
          secret,
          z.describe(
            "Standard Webhooks signing secret: whsec_ followed by base64 of 24-64 random bytes; adds webhook-signature. Secret.",
          ),
        ),
    ),
  });
}

export type WebhookOptions = z.infer<ReturnType<typeof optionsSchema>>;

// The documented body, version 1 (docs/webhook.md). Stable bytes: no per-attempt field in it.
export function webhookBody(notification: Notification, id: string): string {
  const n = notification;
  return JSON.stringify({
    schemaVersion: 1,
    id,
    type: `hook.${n.event.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase()}`,
    timestamp: n.timestamp,
    data: {
      notificationId: n.id,
      event: n.event,
      failure: n.failure,
      level: n.level,
      title: n.title,
      body: n.body,
      project: n.project,
      session: { id: n.sessionId, title: n.sessionTitle, tokenUsage: n.tokenUsage },
      client: n.client,
      cwd: n.cwd,
      message: n.message,
      lastMessage: n.lastMessage,
      reason: n.reason,
      agentType: n.agentType,
      durationMs: n.durationMs,
      messageCount: n.messageCount,
      resetsAt: n.resetsAt,
      raw: n.raw,
      coalesced: n.coalesced,
      digest: n.digest,
    },
  });
}

// The exact request for one attempt; `masked` hides the URL, header values and signature.
export function webhookRequest(
  notification: Notification,
  options: WebhookOptions,
  ctx: { nowMs: number; masked: boolean },
): HttpRequest {
  const id = webhookId(notification.id);
  const timestamp = Math.floor(ctx.nowMs / 1000);
  const body = webhookBody(notification, id);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!OWN_HEADERS.includes(name.toLowerCase())) headers[name] = ctx.masked ? MASK : value;
  }
  Object.assign(headers, {
    "content-type": "application/json",
    "user-agent": userAgent(),
    "idempotency-key": id,
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
  });
  if (options.secret) {
    headers["webhook-signature"] = ctx.masked
      ? `v1,${MASK}`
      : signWebhook(options.secret, id, timestamp, body);
  }
  const url = endpointOf(options.url);
  return { url: ctx.masked ? redactUrl(url) : url, headers, body };
}

// POSTs JSON to any HTTP endpoint; the id stays the same across retries so receivers dedupe.
export const webhook = defineSink<WebhookOptions>({
  type: "webhook",
  options: optionsSchema,
  remote: true,
  describeTarget: (options) => redactUrl(endpointOf(options.url)),
  // Any endpoint: nothing proves it without sending one (`test` does), so doctor says "reachable only".
  check: async (entry, ctx) => {
    const { checkReachable, onlyReachable } = await import("../http/reachable-check.js");
    const url = endpointOf((entry.options as WebhookOptions).url);
    const reached = await checkReachable({ name: entry.name, label: "webhook", url }, ctx.deps.env);
    return onlyReachable(reached, entry.name);
  },
  starters: [
    {
      choice: "webhook",
      secret: { name: "HOOK_NOTIFY_WEBHOOK_SECRET", what: "the webhook signing secret (whsec_…)" },
      // The URL may carry a token too, so it comes from the environment as well.
      vars: ["HOOK_NOTIFY_WEBHOOK_URL"],
      entry: (secret) => ({ type: "webhook", url: "${HOOK_NOTIFY_WEBHOOK_URL}", secret }),
    },
  ],
  explain: () => undefined,
  render: (notification, options, deps) => {
    const request = webhookRequest(notification, options, { nowMs: deps.now(), masked: true });
    return { method: "POST", ...request, body: JSON.parse(request.body) as unknown };
  },
  send: async (notification, options, ctx) => {
    const request = webhookRequest(notification, options, { nowMs: ctx.deps.now(), masked: false });
    const response = await postRequest(request, {
      signal: ctx.signal,
      env: ctx.deps.env,
      sinkName: ctx.sinkName,
    });
    assertSuccess(response, { sinkName: ctx.sinkName, service: "the webhook" });
  },
});
