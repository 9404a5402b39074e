import { describe, expect, it } from "vitest";
import { buildChatRequest } from "../../../src/sinks/chat/index.js";

import {
  EVIL_URL,
  emojiTitle,
  hasDisguisedLink,
  hasLiveMention,
  hostile,
  isWellFormed,
  longBody,
  spoofing,
  stringsIn,
} from "./notifications.js";

// The webhook services (Telegram, Pushover and Gotify have test files of their own).
const CHAT_SERVICES = ["slack", "discord", "teams", "googlechat", "mattermost", "ntfy"] as const;
type ChatService = (typeof CHAT_SERVICES)[number];

const urls: Record<ChatService, string> = {
  slack: "https://hooks.slack.com/services/T0/B0/x",
  discord: "https://discord.com/api/webhooks/1/x",
  teams: "https://example.logic.azure.com/workflows/x?sig=y",
  googlechat: "https://chat.googleapis.com/v1/spaces/A/messages?key=k&token=t",
  mattermost: "https://mm.example.com/hooks/x",
  ntfy: "https://ntfy.sh/mytopic",
};

// Whole-payload bounds: the documented request limits, or what the field limits add up to.
const MAX_JSON_BYTES: Record<ChatService, number> = {
  slack: 64_000,
  discord: 40_000,
  teams: 28_000,
  googlechat: 32_000,
  mattermost: 100_000,
  ntfy: 8_000,
};

const bodyOf = (service: ChatService, notification = hostile) =>
  buildChatRequest(notification, { service, url: urls[service] }).body;

describe.each(CHAT_SERVICES)("%s payloads", (service) => {
  it("leave no live mention from hostile text", () => {
    for (const [path, text] of stringsIn(bodyOf(service))) {
      expect(hasLiveMention(text), `${path}: ${JSON.stringify(text)}`).toBe(false);
    }
  });

  it("leave no link whose words hide its URL, and show the URL", () => {
    const strings = stringsIn(bodyOf(service, spoofing));
    for (const [path, text] of strings) {
      const permissive = service === "mattermost";
      expect(hasDisguisedLink(text, permissive), `${path}: ${JSON.stringify(text)}`).toBe(false);
    }
    expect(strings.some(([, text]) => text.includes(EVIL_URL))).toBe(true);
    expect(strings.some(([, text]) => text.includes("Re-authenticate"))).toBe(true);
  });

  it("keep hostile text readable (script and shell text arrive as text)", () => {
    const all = stringsIn(bodyOf(service))
      .map(([, text]) => text)
      .join("\n");
    expect(all).toMatch(/script.*alert\(1\)/);
    expect(all).toContain("$(rm -rf ~)");
  });

  it("trim a long body with an ellipsis, never splitting an emoji, within the size bound", () => {
    const body = bodyOf(service, longBody);
    const strings = stringsIn(body).map(([, text]) => text);
    expect(strings.some((text) => text.includes("…"))).toBe(true);
    expect(strings.every(isWellFormed)).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(MAX_JSON_BYTES[service]);
  });

  it("carry an emoji title unchanged", () => {
    const strings = stringsIn(bodyOf(service, emojiTitle)).map(([, text]) => text);
    expect(strings.some((text) => text.includes(emojiTitle.title))).toBe(true);
  });
});
