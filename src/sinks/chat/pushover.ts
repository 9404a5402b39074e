// Pushover Message API: https://pushover.net/api (POST /1/messages.json, form-encoded), and its
// receipts API for emergency messages (GET /1/receipts/RECEIPT.json?token=APP_TOKEN).
import type { Level, Notification } from "../../core/notification.js";
import { assertSuccess, type HttpResponse } from "../../http/post.js";
import { idOf, parseJson, reject, shortText } from "./answer.js";
import {
  apiOf,
  APPRISE,
  PUSHOVER_API,
  PUSHOVER_LIMITS,
  target,
  type PushoverOptions,
} from "./pushover-options.js";
import { isEmergency } from "./pushover-options.js";
import { RECEIPTS } from "./pushover-receipts.js";
import { shape } from "./pushover-shape.js";
import { defineChatService, type ChatRequest } from "./service.js";
import { describeOrigin, encodeText, fitText } from "./text.js";

const PRIORITY: Record<Level, number> = { failure: 1, attention: 1, done: 0, info: -1, limit: 0 };

// Priority 2 (emergency: repeats every retrySeconds until acknowledged or expireSeconds) for
// failures and permission requests, 1 (high) for the rest that needs you, 0 when done or at a
// usage limit, -1 (quiet: no sound or vibration) for a notice. Plain text.
function build(notification: Notification, options: PushoverOptions): ChatRequest {
  const { user, token, device } = target(options);
  const origin = describeOrigin(notification);
  const text = [notification.body, origin].filter((part) => part !== "").join("\n\n");
  const emergency = isEmergency(notification, options);
  const priority = emergency ? 2 : PRIORITY[notification.level];
  const body: Record<string, string> = {
    token,
    user,
    title: fitText(notification.title, encodeText, { chars: PUSHOVER_LIMITS.title }),
    message: fitText(text === "" ? notification.title : text, encodeText, {
      chars: PUSHOVER_LIMITS.message,
    }),
    priority: String(priority),
    timestamp: String(Math.floor(Date.parse(notification.timestamp) / 1000)),
  };
  if (emergency) {
    body.retry = String(options.retrySeconds ?? 60);
    body.expire = String(options.expireSeconds ?? 3600);
  }
  if (device !== undefined) body.device = device;
  return { url: `${apiOf(options)}/1/messages.json`, headers: {}, body, form: true };
}

// `{"status":1,"request":…,"receipt"?}`; a 4xx is `{"status":0,"errors":[…]}`: not retried.
function read(response: HttpResponse, sinkName: string) {
  const json = parseJson(response.text);
  const { status } = response;
  if (status >= 200 && status < 300 && json?.status === 1) {
    return { messageId: idOf(json.receipt) ?? idOf(json.request) };
  }
  const errors = Array.isArray(json?.errors) ? json.errors.join("; ") : undefined;
  const said = shortText(errors);
  if (status === 429) {
    const hint = "the application's monthly message limit is used up";
    reject({ sinkName, service: "Pushover", status, said, hint, retryable: false });
  }
  if (status >= 400 && status < 500) {
    const hint = "check the user key and application token (and device)";
    reject({ sinkName, service: "Pushover", status, said, hint, retryable: false });
  }
  assertSuccess(response, { sinkName, service: "Pushover" });
  const hint = "the answer did not say status 1";
  return reject({ sinkName, service: "Pushover", status, said, hint, retryable: true });
}

// Everything hook-notify knows about Pushover: options, Apprise form, request, answer.
export const pushover = defineChatService<PushoverOptions>({
  id: "pushover",
  name: "Pushover",
  shape,
  refine: (options) =>
    options.url !== undefined || (options.user !== undefined && options.token !== undefined)
      ? undefined
      : { path: "url", message: `expected ${APPRISE.form}, or user and token` },
  apprise: APPRISE,
  build,
  // users/validate.json checks the user key (and device) with the application token, and sends
  // nothing (pushover.net/api#verification); an unknown key or token answers 400.
  probe: (options) => ({
    url: `${apiOf(options)}/1/users/validate.json`,
    headers: {},
    body: target(options),
    form: true,
  }),
  read,
  escape: encodeText,
  describe: (options) => {
    const { device } = target(options);
    const where = new URL(options.apiUrl ?? PUSHOVER_API).origin;
    return `pushover user${device === undefined ? "" : ` device ${device}`} via ${where}`;
  },
  receipts: RECEIPTS,
  example: "pover://uQiRzpo4DXghDmr9QzzfQu27cmVRsG@azGDORePK8gMaC0QOYAMyEEuzJnyUi",
  starter: { name: "PUSHOVER_URL", what: "pover://USER_KEY@APP_TOKEN" },
});
