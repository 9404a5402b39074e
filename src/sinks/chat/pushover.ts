// Pushover Message API: https://pushover.net/api (POST /1/messages.json, form-encoded), and its
// receipts API for emergency messages (GET /1/receipts/RECEIPT.json?token=APP_TOKEN).
import * as z from "../../zod.js";
import type { Level, Notification } from "../../core/notification.js";
import { assertSuccess, type HttpResponse } from "../../http/post.js";
import { idOf, parseJson, reject, shortText } from "./answer.js";
import type { ReceiptAnswer, ReceiptWindow, SentMessage } from "../../core/receipt.js";
import {
  defineChatService,
  type AppriseForm,
  type ChatRequest,
  type ReceiptPolling,
} from "./service.js";
import { describeOrigin, encodeText, fitText } from "./text.js";
import { splitUrl, urlOption } from "./url-option.js";

/** A `chat` entry with "service": "pushover", as validated (the url may be the Apprise form). */
export interface PushoverOptions {
  service: "pushover";
  url?: string | undefined;
  user?: string | undefined;
  token?: string | undefined;
  device?: string | undefined;
  apiUrl?: string | undefined;
  emergency?: boolean | undefined;
  retrySeconds?: number | undefined;
  expireSeconds?: number | undefined;
}

// Where Pushover's API lives; `apiUrl` points elsewhere only for tests and proxies.
export const PUSHOVER_API = "https://api.pushover.net";
// message ≤ 1024 characters, title ≤ 250 ("Limitations"); emergency retry ≥ 30 s, expire ≤ 10800 s.
export const PUSHOVER_LIMITS = { message: 1024, title: 250, minRetry: 30, maxExpire: 10_800 };
const KEY = /^[A-Za-z0-9]{30}$/;

// Apprise `pover://USER_KEY@APP_TOKEN` (a device as `/DEVICE`).
function parseApprise(value: string): Partial<PushoverOptions> | undefined {
  const url = splitUrl(value);
  if (!url?.userinfo || !KEY.test(url.userinfo) || !KEY.test(url.host)) return undefined;
  if (url.segments.length > 1) return undefined;
  const [device] = url.segments;
  return { user: url.userinfo, token: url.host, ...(device ? { device } : {}) };
}

function target(options: PushoverOptions): { user: string; token: string; device?: string } {
  const fromUrl = options.url === undefined ? undefined : parseApprise(options.url);
  const device = options.device ?? fromUrl?.device;
  return {
    user: options.user ?? fromUrl?.user ?? "",
    token: options.token ?? fromUrl?.token ?? "",
    ...(device === undefined ? {} : { device }),
  };
}

// A permission request waits on a person as much as a failure does.
function needsAcknowledgement(notification: Notification): boolean {
  const type = notification.raw["notification_type"];
  const asks = type === "permission_prompt" || /permission/i.test(notification.message ?? "");
  return notification.level === "failure" || (notification.level === "attention" && asks);
}

function isEmergency(notification: Notification, options: PushoverOptions): boolean {
  return options.emergency !== false && needsAcknowledgement(notification);
}

function apiOf(options: PushoverOptions): string {
  return (options.apiUrl ?? PUSHOVER_API).replace(/\/+$/, "");
}

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

// The first look a little after sending (Pushover asks for no more than one every 5 s), then one
// per emergency repeat (`retrySeconds`, ≥ 30 s), until `expireSeconds`: at most ~360 looks.
export const RECEIPT_FIRST_LOOK_SECONDS = 10;

function receiptWindow(
  notification: Notification,
  options: PushoverOptions,
): ReceiptWindow | undefined {
  if (!isEmergency(notification, options)) return undefined;
  return {
    firstSeconds: RECEIPT_FIRST_LOOK_SECONDS,
    everySeconds: options.retrySeconds ?? 60,
    forSeconds: options.expireSeconds ?? 3600,
  };
}

const RECEIPT = /^[A-Za-z0-9]{1,64}$/;

// The token rides in the query string, as the API wants it: the URL is never logged whole.
function receiptRequest(
  { messageId: receipt }: SentMessage,
  options: PushoverOptions,
): ChatRequest {
  if (!RECEIPT.test(receipt)) throw new TypeError("not a Pushover receipt");
  const query = new URLSearchParams({ token: target(options).token });
  const url = `${apiOf(options)}/1/receipts/${receipt}.json?${query.toString()}`;
  return { url, method: "GET", headers: {}, body: undefined };
}

// `{"status":1,"acknowledged":1,"acknowledged_at":…,"acknowledged_by_device":…,"expired":…,
// "expires_at":…}`. `acknowledged_by` (a user key, a secret) is never read.
function readReceipt(response: HttpResponse, { sinkName }: { sinkName: string }): ReceiptAnswer {
  const json = parseJson(response.text);
  const { status } = response;
  if (status >= 200 && status < 300 && json?.status === 1) {
    if (json.acknowledged === 1) {
      const device = json.acknowledged_by_device;
      const by = typeof device === "string" && device !== "" ? device : undefined;
      return { state: "acknowledged", at: isoOf(json.acknowledged_at), by };
    }
    if (json.expired === 1) return { state: "expired", at: isoOf(json.expires_at) };
    return { state: "waiting" };
  }
  const errors = Array.isArray(json?.errors) ? json.errors.join("; ") : undefined;
  const said = shortText(errors);
  if (status >= 400 && status < 500 && status !== 429) {
    const hint = "the receipt is unknown or the application token was refused";
    reject({ sinkName, service: "Pushover", status, said, hint, retryable: false });
  }
  assertSuccess(response, { sinkName, service: "Pushover" });
  const hint = "the receipt's answer did not say status 1";
  return reject({ sinkName, service: "Pushover", status, said, hint, retryable: true });
}

// Unix seconds → ISO time; 0 (not yet) and anything else → undefined.
function isoOf(seconds: unknown): string | undefined {
  return typeof seconds === "number" && seconds > 0 && Number.isFinite(seconds)
    ? new Date(seconds * 1000).toISOString()
    : undefined;
}

const RECEIPTS: ReceiptPolling<PushoverOptions> = {
  window: receiptWindow,
  request: receiptRequest,
  read: readReceipt,
};

const APPRISE: AppriseForm<PushoverOptions> = {
  schemes: ["pover"],
  form: "pover://USER_KEY@APP_TOKEN",
  parse: parseApprise,
};

// Who gets it and with which keys: the Apprise url, or user and token (and a device).
function keysShape() {
  const secret = (description: string) => z.meta({ secret: true, description });
  return {
    url: z.optional(
      urlOption(
        APPRISE,
        undefined,
        "Apprise form pover://USER_KEY@APP_TOKEN, instead of user and token.",
      ),
    ),
    user: z.optional(
      z
        .string()
        .check(z.regex(KEY, "expected a 30-character key"), secret("User or group key. Secret.")),
    ),
    token: z.optional(
      z
        .string()
        .check(
          z.regex(KEY, "expected a 30-character token"),
          secret("Application API token. Secret."),
        ),
    ),
    device: z.optional(
      z.string().check(z.regex(/^[\w-]{1,25}$/), z.describe("Only this device of the user.")),
    ),
    apiUrl: z.optional(
      z
        .url({ protocol: /^https?$/ })
        .check(z.meta({ description: "API server (for tests).", default: PUSHOVER_API })),
    ),
  };
}

// Options that change how the message looks and rings.
function emergencyShape() {
  return {
    emergency: z.optional(
      z
        .boolean()
        .check(
          z.describe(
            "false: failures and permission requests are high priority (1), not emergency (2).",
          ),
        ),
    ),
    retrySeconds: z.optional(
      z.int().check(
        z.gte(PUSHOVER_LIMITS.minRetry),
        z.lte(10_800),
        z.meta({
          description: "Emergency: repeat every this many seconds until acknowledged.",
          default: 60,
        }),
      ),
    ),
    expireSeconds: z.optional(
      z.int().check(
        z.gte(30),
        z.lte(PUSHOVER_LIMITS.maxExpire),
        z.meta({
          description: "Emergency: stop repeating after this many seconds.",
          default: 3600,
        }),
      ),
    ),
  };
}

// Its options besides `service`, in the order the docs list them.
function shape() {
  return { ...keysShape(), ...emergencyShape() };
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
