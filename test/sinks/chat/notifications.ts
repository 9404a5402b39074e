// Sample notifications for the chat tests, shaped like those built from the captured Claude Code
// payloads in test/fixtures/events/claude-code (Stop, Notification, SessionEnd-other).
import type { Notification } from "../../../src/core/notification.js";

const base = {
  project: "shop-api",
  client: "claude-code",
  cwd: "/home/dev/projects/shop-api",
  sessionId: "4cf0a0c5-3424-484b-98e4-44b5c7712fe3",
  timestamp: "2026-11-22T10:00:00.000Z",
  raw: {},
} as const;

export const stop: Notification = {
  ...base,
  id: "n-stop",
  event: "Stop",
  failure: false,
  level: "done",
  title: "shop-api: Claude Code finished",
  body: "All done after the tool ran.",
  lastMessage: "All done after the tool ran.",
};

export const attention: Notification = {
  ...base,
  id: "n-attention",
  event: "Notification",
  failure: false,
  level: "attention",
  title: "shop-api: Claude Code needs you",
  body: "Claude needs your permission to use Bash",
  message: "Claude needs your permission to use Bash",
};

export const failure: Notification = {
  ...base,
  id: "n-failure",
  event: "SessionEnd",
  failure: true,
  level: "failure",
  title: "shop-api: session ended unexpectedly",
  body: "Reason: other",
  reason: "other",
};

// 40,000 characters with emoji, quotes, newlines and ampersands: past every service's limit,
// and full of characters whose encoded size is larger than one byte.
export const longBody: Notification = {
  ...stop,
  id: "n-long",
  body: Array.from({ length: 5000 }, (_, i) => `${i} 😀 "&\n`).join(""),
};

export const HOSTILE_TEXT =
  "<!channel> @everyone @here <users/all> <script>alert(1)</script> $(rm -rf ~)";

export const hostile: Notification = {
  ...stop,
  id: "n-hostile",
  title: `${HOSTILE_TEXT} <!here> <@U123>`,
  body: `${HOSTILE_TEXT}\n@channel @all <@123456> <@&42> <at>Everyone</at>`,
};

export const emojiTitle: Notification = {
  ...stop,
  id: "n-emoji",
  title: "🎉 shop-api: tests pass ✅ — 👩‍💻 done",
};

// True when the text still holds something a chat service would turn into a ping.
export function hasLiveMention(text: string): boolean {
  return (
    /@(everyone|here|channel|all)\b/i.test(text) ||
    /<[!@]/.test(text) ||
    /<users\//.test(text) ||
    /<at>/i.test(text)
  );
}

// Every string inside a JSON value, with its path, for checks that must hold for all fields.
export function stringsIn(value: unknown, path = "$"): [string, string][] {
  if (typeof value === "string") return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringsIn(item, `${path}[${i}]`));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) => stringsIn(item, `${path}.${key}`));
  }
  return [];
}

// False when the text holds a lone surrogate (a cut through an emoji).
export function isWellFormed(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/** Where the spoofed links point: it must stay visible in every service. */
export const EVIL_URL = "http://evil.example/login";

// Agent text that tries to hide a URL behind friendly words, in each syntax a service links.
export const spoofing: Notification = {
  ...stop,
  id: "n-spoofing",
  title: `[Re-authenticate](${EVIL_URL}) <${EVIL_URL}|Open the dashboard>`,
  body: [
    `Session expired. [Re-authenticate](${EVIL_URL}) or <${EVIL_URL}|Click here>.`,
    `![status](${EVIL_URL}/pixel.png) [Docs][docs] [Help]( <${EVIL_URL}> "tip")`,
    "",
    `[docs]: ${EVIL_URL}`,
  ].join("\n"),
};

// True when the text holds link syntax whose words hide the URL: Markdown inline, image,
// reference and definition forms, and `<url|words>` as Slack and Google Chat read it (the URL
// right after `<`) or, with `permissive`, as Mattermost's webhooks do (anything but `\n < | >`
// before the `|`).
export function hasDisguisedLink(text: string, permissive = false): boolean {
  return (
    /\][([]/.test(text) ||
    /^ {0,3}\[[^\]]+\]:/m.test(text) ||
    /<[a-z][a-z0-9+.-]*:[^\n<|>]*\|[^\n>]+>/i.test(text) ||
    (permissive && /<[^\n<|>]+\|[^\n>]+>/.test(text))
  );
}
