import { describe, expect, it } from "vitest";
import { DISCORD_LIMITS, formatDiscord } from "../../../src/sinks/chat/format-discord.js";
import type { Notification } from "../../../src/core/notification.js";
import { attention, emojiTitle, failure, hostile, longBody, stop } from "./notifications.js";

const url = "https://discord.com/api/webhooks/123/tok-en";

interface DiscordBody {
  content: string;
  embeds: { description?: string; footer?: { text: string }; color: number; title?: string }[];
  allowed_mentions: unknown;
}
const bodyOf = (n: Notification) =>
  formatDiscord(n, { service: "discord", url }).body as DiscordBody;

describe("formatDiscord", () => {
  it.each([
    [stop, "✅", 0x57f287, "Stop"],
    [attention, "🔔", 0xfee75c, "Notification"],
    [failure, "🚨", 0xed4245, "SessionEnd"],
  ])("builds content + a coloured embed (%#)", (notification, emoji, color, event) => {
    expect(formatDiscord(notification, { service: "discord", url })).toEqual({
      url: `${url}?wait=true`,
      headers: { "content-type": "application/json" },
      body: {
        content: `${emoji} ${notification.title}`,
        embeds: [
          {
            color,
            timestamp: "2026-11-22T10:00:00.000Z",
            description: notification.body,
            footer: { text: `shop-api · Claude Code · ${event}` },
          },
        ],
        allowed_mentions: { parse: [] },
      },
    });
  });

  it("adds username and avatar_url, and keeps an existing query (thread_id)", () => {
    const request = formatDiscord(stop, {
      service: "discord",
      url: `${url}?thread_id=9`,
      username: "hook-notify",
      avatarUrl: "https://example.com/a.png",
    });
    expect(request.url).toBe(`${url}?thread_id=9&wait=true`);
    expect(request.body).toMatchObject({
      username: "hook-notify",
      avatar_url: "https://example.com/a.png",
    });
  });

  it("trims a long body to 4096 and keeps all embeds under 6000 characters", () => {
    const { embeds, content } = bodyOf(longBody);
    const embed = embeds[0]!;
    expect(embed.description!.length).toBeLessThanOrEqual(DISCORD_LIMITS.description);
    expect(embed.description!.endsWith("…")).toBe(true);
    const total = (embed.description?.length ?? 0) + (embed.footer?.text.length ?? 0);
    expect(total).toBeLessThanOrEqual(DISCORD_LIMITS.embedsTotal);
    expect(content.length).toBeLessThanOrEqual(DISCORD_LIMITS.content);
  });

  it("trims a long title to 2000 characters of content", () => {
    const { content } = bodyOf({ ...stop, title: "x".repeat(5000) });
    expect(content.length).toBe(DISCORD_LIMITS.content);
    expect(content.endsWith("…")).toBe(true);
  });

  it("leaves no live mention and allows none", () => {
    const body = bodyOf(hostile);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    for (const text of [body.content, body.embeds[0]?.description ?? ""]) {
      expect(text).not.toMatch(/@everyone|@here|<@|<!/);
      expect(text).toContain("@\u200Beveryone");
    }
  });

  it("keeps emoji in the title", () => {
    expect(bodyOf(emojiTitle).content).toBe(`✅ ${emojiTitle.title}`);
  });
});
