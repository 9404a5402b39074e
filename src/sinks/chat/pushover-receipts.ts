// Pushover's emergency messages (priority 2) and their receipts: when to look, the request (GET
// /1/receipts/RECEIPT.json?token=APP_TOKEN) and what it answers.
import type { Notification } from "../../core/notification.js";
import type { ReceiptAnswer, ReceiptWindow, SentMessage } from "../../core/receipt.js";
import { assertSuccess, type HttpResponse } from "../../http/post.js";
import { parseJson, reject, shortText } from "./answer.js";
import { apiOf, isEmergency, target, type PushoverOptions } from "./pushover-options.js";
import type { ChatRequest, ReceiptPolling } from "./service.js";

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

export const RECEIPTS: ReceiptPolling<PushoverOptions> = {
  window: receiptWindow,
  request: receiptRequest,
  read: readReceipt,
};
