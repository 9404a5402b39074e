import { describe, expect, it } from "vitest";
import { formatGoogleChat, GOOGLE_CHAT_LIMITS } from "../../../src/sinks/chat/format-googlechat.js";
import type { Notification } from "../../../src/core/notification.js";
import { attention, emojiTitle, failure, hostile, longBody, stop } from "./notifications.js";

const url = "https://chat.googleapis.com/v1/spaces/AAAA/messages?key=k3y&token=t0ken";
const textOf = (n: Notification) =>
  (formatGoogleChat(n, { service: "googlechat", url }).body as { text: string }).text;

describe("formatGoogleChat", () => {
  it.each([
    [stop, "✅", "Stop"],
    [attention, "🔔", "Notification"],
    [failure, "🚨", "SessionEnd"],
  ])("builds a text message in Chat syntax (%#)", (notification, emoji, event) => {
    expect(formatGoogleChat(notification, { service: "googlechat", url })).toEqual({
      url,
      headers: { "content-type": "application/json; charset=UTF-8" },
      body: {
        text: `${emoji} *${notification.title}*\n${notification.body}\n_shop-api · Claude Code · ${event}_`,
      },
    });
  });

  it("keeps a long message within 32,000 bytes of JSON, the body ending with …", () => {
    const request = formatGoogleChat(longBody, { service: "googlechat", url });
    expect(Buffer.byteLength(JSON.stringify(request.body))).toBeLessThanOrEqual(
      GOOGLE_CHAT_LIMITS.messageBytes,
    );
    const lines = textOf(longBody).split("\n");
    expect(lines.at(-2)!.endsWith("…")).toBe(true);
    expect(lines.at(-1)).toBe("_shop-api · Claude Code · Stop_");
  });

  it("breaks <users/all> and @ mentions", () => {
    const text = textOf(hostile);
    expect(text).not.toMatch(/<users\/|@everyone|@here|@all/);
    expect(text).toContain("<\u200Busers/all>");
  });

  it("keeps emoji in the title", () => {
    expect(textOf(emojiTitle).split("\n")[0]).toBe(`✅ *${emojiTitle.title}*`);
  });
});
