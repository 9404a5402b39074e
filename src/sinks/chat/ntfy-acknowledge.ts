// ntfy's "Acknowledge" button (the option "acknowledge": true): an `http` action that posts a
// body signed with the machine key (machine-key.ts) for THIS notification's id to the entry's
// reply topic (publish.md "Action buttons"), and the worker's looks at that topic with
// `GET <root><replyTopic>/json?poll=1&since=<sent>` (subscribe/api.md, "Poll for messages").
// Only a body whose MAC verifies for the notification's id counts: everything else on the topic
// (other notifications' acknowledgements, approve's answers, forgeries) is ignored, and nothing
// from it is shown: a press is recorded as "acknowledged" with the server's time only.
import type { Level, Notification } from "../../core/notification.js";
import type { ReceiptAnswer, ReceiptWindow, SentMessage } from "../../core/receipt.js";
import { assertSuccess, type HttpResponse } from "../../http/post.js";
import { checkFields, signFields } from "../../machine-key.js";
import { reject } from "./answer.js";
import type { ChatRequest } from "./service.js";

/** What the button needs of an ntfy entry. */
export interface AcknowledgeOptions {
  acknowledge?: boolean | undefined;
  replyTopic?: string | undefined;
  token?: string | undefined;
}

const DOMAIN = "hook-notify acknowledge v1";
const MAX_BODY = 1024;

// Only what waits on a person gets the button (and is watched): a failure, or the agent waiting.
const ASKS: Record<Level, boolean> = {
  failure: true,
  attention: true,
  done: false,
  info: false,
  limit: false,
};

// The first look 15 s after sending, then one every 30 s for an hour: at most 121 small GETs of
// the reply topic per acknowledgeable notification. A press after the hour is not recorded.
export const ACKNOWLEDGE_WINDOW: ReceiptWindow = {
  firstSeconds: 15,
  everySeconds: 30,
  forSeconds: 3600,
};

export function acknowledges(notification: Notification, options: AcknowledgeOptions): boolean {
  return (
    options.acknowledge === true && options.replyTopic !== undefined && ASKS[notification.level]
  );
}

// The exact body the button posts: the notification's id and its MAC.
export function acknowledgementBody(key: Buffer, notificationId: string): string {
  return JSON.stringify({
    hn: 1,
    ack: notificationId,
    mac: signFields(key, DOMAIN, [notificationId]),
  });
}

// True only for a well-formed acknowledgement of `notificationId` whose MAC checks.
export function isAcknowledgement(key: Buffer, notificationId: string, text: string): boolean {
  if (text.length > MAX_BODY) return false;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (!value || typeof value !== "object") return false;
  const { hn, ack, mac } = value as Record<string, unknown>;
  if (hn !== 1 || ack !== notificationId || typeof mac !== "string") return false;
  return checkFields(key, DOMAIN, [notificationId], mac);
}

// The button, as ntfy's publish-as-JSON `actions` entry. Without the key (a dry run) its body
// says where the signature goes.
export function acknowledgeAction(
  root: string,
  options: AcknowledgeOptions,
  notificationId: string,
  key: Buffer | undefined,
): Record<string, unknown> {
  const body = key
    ? acknowledgementBody(key, notificationId)
    : "(signed with the machine key when sent)";
  return {
    action: "http",
    label: "Acknowledge",
    url: `${root}${options.replyTopic ?? ""}`,
    method: "POST",
    ...(options.token === undefined
      ? {}
      : { headers: { Authorization: `Bearer ${options.token}` } }),
    body,
    clear: true,
  };
}

// `since=` is in the server's clock, the notification's time in this machine's: starting this
// much earlier loses no press to a clock that is a little off (older bodies are another
// notification's, which never verify for this one).
const CLOCK_SLACK_SECONDS = 300;

// One look: the reply topic's cached messages since (a little before) the notification's time.
// The answer is read up to 64 KB (http/post.ts), oldest first: some 400 messages on the topic.
export function acknowledgeRequest(
  root: string,
  sent: SentMessage,
  options: AcknowledgeOptions,
): ChatRequest {
  const seconds = Math.floor(Date.parse(sent.notification.timestamp) / 1000);
  const since = Math.max(0, seconds - CLOCK_SLACK_SECONDS);
  const query = new URLSearchParams({ poll: "1", since: String(since) });
  const headers: Record<string, string> = { accept: "application/x-ndjson" };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  return {
    url: `${root}${options.replyTopic ?? ""}/json?${query.toString()}`,
    method: "GET",
    headers,
    body: undefined,
  };
}

// One JSON message per line; the first that verifies for this notification acknowledges it, at
// the time the ntfy server received it.
export function readAcknowledgement(
  response: HttpResponse,
  look: { sinkName: string; sent: SentMessage; key?: Buffer | undefined },
): ReceiptAnswer {
  const { sinkName, sent, key } = look;
  const { status } = response;
  if (status === 401 || status === 403) {
    const hint = "the sink's token must be allowed to read its replyTopic";
    reject({ sinkName, service: "ntfy", status, hint, retryable: false });
  }
  assertSuccess(response, { sinkName, service: "ntfy" });
  if (!key) return { state: "waiting" };
  for (const line of response.text.split("\n")) {
    const event = parseLine(line);
    if (event?.event !== "message" || typeof event.message !== "string") continue;
    if (!isAcknowledgement(key, sent.notification.id, event.message)) continue;
    const time = event.time;
    const at = typeof time === "number" && time > 0 && time < 1e11 ? time : undefined;
    return {
      state: "acknowledged",
      at: at === undefined ? undefined : new Date(at * 1000).toISOString(),
    };
  }
  return { state: "waiting" };
}

function parseLine(line: string): Record<string, unknown> | undefined {
  if (line.trim() === "") return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
