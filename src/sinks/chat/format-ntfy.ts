// ntfy "publish as JSON" to the server root: https://github.com/binwiederhier/ntfy/blob/main/docs/publish.md#publish-as-json
import { HookNotifyError } from "../../errors.js";
import type { Level, Notification } from "../../core/notification.js";
import type { ChatRequest } from "./service.js";
import type { NtfyOptions } from "./ntfy.js";
import { encodeText, describeOrigin, fitText } from "./text.js";
import { acknowledgeAction, acknowledges } from "./ntfy-acknowledge.js";

// Messages above 4,096 bytes become an attachment instead of a notification (publish.md
// "Limitations"). Titles have no documented limit; 250 characters keeps them readable.
export const NTFY_LIMITS = { messageBytes: 4096, title: 250 };

// Topic names are `[-_A-Za-z0-9]{1,64}` (publish.md "Picking a topic").
const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;

// Priority 5 (max) for failures, 4 (high) when the agent waits, 3 (default) when done or at a
// usage limit, 2 (low: no sound, no pop-up) for a notice; the tag becomes the emoji shown before
// the title.
const PRIORITY: Record<Level, number> = { failure: 5, attention: 4, done: 3, info: 2, limit: 3 };
const TAG: Record<Level, string> = {
  failure: "rotating_light",
  attention: "bell",
  done: "white_check_mark",
  info: "information_source",
  limit: "hourglass",
};

// Splits the topic URL the user copies (`https://ntfy.sh/mytopic`) into the server root that
// takes JSON and the topic name that goes in the body.
export function splitTopicUrl(topicUrl: string): { root: string; topic: string } {
  const url = new URL(topicUrl);
  const segments = url.pathname.split("/").filter((segment) => segment !== "");
  const topic = segments.pop() ?? "";
  if (!TOPIC.test(topic)) {
    throw new HookNotifyError(
      "CONFIG_INVALID",
      `ntfy url must end with a topic name (letters, digits, - and _), like ${url.origin}/mytopic.`,
      { retryable: false },
    );
  }
  return { root: `${url.origin}/${segments.map((s) => `${s}/`).join("")}`, topic };
}

// Builds the publish request. JSON, not headers: Node refuses non-ASCII header values, and agent
// titles carry emoji. A token becomes `Authorization: Bearer`. With "acknowledge", a failure or
// a waiting agent gets the Acknowledge button, signed with `key` (ntfy-acknowledge.ts).
export function formatNtfy(
  notification: Notification,
  options: NtfyOptions,
  key?: Buffer,
): ChatRequest {
  const { root, topic } = splitTopicUrl(options.url);
  const origin = describeOrigin(notification);
  const text = [notification.body, origin].filter((part) => part !== "").join("\n\n");
  const payload = {
    topic,
    title: fitText(notification.title, encodeText, { chars: NTFY_LIMITS.title }),
    message: fitText(text, encodeText, { bytes: NTFY_LIMITS.messageBytes }),
    priority: options.priority ?? PRIORITY[notification.level],
    tags: [TAG[notification.level], ...(options.tags ?? [])],
    ...(acknowledges(notification, options)
      ? { actions: [acknowledgeAction(root, options, notification.id, key)] }
      : {}),
  };
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  return { url: root, headers, body: payload };
}
