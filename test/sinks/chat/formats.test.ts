import { describe, expect, it } from "vitest";
import {
  buildChatRequest,
  CHAT_SERVICES,
  type ChatServiceId,
} from "../../../src/sinks/chat/index.js";
import { chatServices } from "../../../src/sinks/chat/services.js";
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

type ChatService = ChatServiceId;

// Each service's own example url (made-up secrets).
const urlOf = (id: ChatService): string => chatServices.find((s) => s.id === id)?.example ?? "";

// Whole-payload bounds: the documented request limits, or what the field limits add up to.
const MAX_JSON_BYTES: Partial<Record<ChatService, number>> = {
  slack: 64_000,
  discord: 40_000,
  teams: 28_000,
  googlechat: 32_000,
  mattermost: 100_000,
  ntfy: 8_000,
  telegram: 20_000,
  pushover: 8_000,
  gotify: 40_000,
  matrix: 65_536, // the whole event (spec "Size limits")
};

// What a person sees of a string: Telegram's MarkdownV2 unescaped, Matrix's HTML entities read.
const SEEN: Partial<Record<ChatService, (text: string) => string>> = {
  telegram: (text) => text.replace(/\\(.)/g, "$1"),
  matrix: (text) =>
    text
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&quot;", '"')
      .replaceAll("&#39;", "'")
      .replaceAll("&amp;", "&"),
};
const seen = (service: ChatService, texts: string[]): string[] =>
  texts.map(SEEN[service] ?? ((text) => text));

const bodyOf = (service: ChatService, notification = hostile) =>
  buildChatRequest(notification, { service, url: urlOf(service) }).body;

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
    const shown = seen(
      service,
      strings.map(([, text]) => text),
    );
    expect(shown.some((text) => text.includes(EVIL_URL))).toBe(true);
    expect(shown.some((text) => text.includes("Re-authenticate"))).toBe(true);
  });

  it("keep hostile text readable (script and shell text arrive as text)", () => {
    const all = seen(
      service,
      stringsIn(bodyOf(service)).map(([, text]) => text),
    ).join("\n");
    expect(all).toMatch(/script.*alert\(1\)/);
    expect(all).toContain("$(rm -rf ~)");
  });

  it("trim a long body with an ellipsis, never splitting an emoji, within the size bound", () => {
    const body = bodyOf(service, longBody);
    const strings = stringsIn(body).map(([, text]) => text);
    expect(strings.some((text) => text.includes("…"))).toBe(true);
    expect(strings.every(isWellFormed)).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(
      MAX_JSON_BYTES[service] ?? 65_536,
    );
  });

  it("carry an emoji title unchanged", () => {
    const strings = seen(
      service,
      stringsIn(bodyOf(service, emojiTitle)).map(([, text]) => text),
    );
    expect(strings.some((text) => text.includes(emojiTitle.title))).toBe(true);
  });
});
