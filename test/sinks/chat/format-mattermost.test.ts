import { describe, expect, it } from "vitest";
import { formatMattermost, MATTERMOST_LIMITS } from "../../../src/sinks/chat/format-mattermost.js";
import type { Notification } from "../../../src/core/notification.js";
import { attention, emojiTitle, failure, hostile, longBody, stop } from "./notifications.js";

const url = "https://mm.example.com/hooks/xxx-generatedkey-xxx";

interface Attachment {
  fallback: string;
  title: string;
  text: string;
  color: string;
}
const attachmentOf = (n: Notification) =>
  (formatMattermost(n, { service: "mattermost", url }).body as { attachments: Attachment[] })
    .attachments[0]!;

describe("formatMattermost", () => {
  it.each([
    [stop, "✅", "#3DB887", "Stop"],
    [attention, "🔔", "#FFBC1F", "Notification"],
    [failure, "🚨", "#D24B4E", "SessionEnd"],
  ])("builds one coloured attachment (%#)", (notification, emoji, color, event) => {
    expect(formatMattermost(notification, { service: "mattermost", url })).toEqual({
      url,
      headers: { "content-type": "application/json" },
      body: {
        attachments: [
          {
            fallback: `${emoji} ${notification.title}`,
            color,
            title: `${emoji} ${notification.title}`,
            text: notification.body,
            footer: `shop-api · Claude Code · ${event}`,
          },
        ],
      },
    });
  });

  it("adds username and icon_url overrides", () => {
    const request = formatMattermost(stop, {
      service: "mattermost",
      url,
      username: "hook-notify",
      avatarUrl: "https://example.com/a.png",
    });
    expect(request.body).toMatchObject({
      username: "hook-notify",
      icon_url: "https://example.com/a.png",
    });
  });

  it("trims a long body to the 16,383-character post limit", () => {
    const { text } = attachmentOf({ ...longBody, body: longBody.body.repeat(2) });
    expect(text.length).toBeLessThanOrEqual(MATTERMOST_LIMITS.text);
    expect(text.endsWith("…")).toBe(true);
  });

  it("breaks @channel, @all, @here and the Slack forms Mattermost expands", () => {
    const attachment = attachmentOf(hostile);
    for (const text of [attachment.text, attachment.title, attachment.fallback]) {
      expect(text).not.toMatch(/@channel|@all|@here|@everyone|<!|<@/);
    }
  });

  it("keeps emoji in the title", () => {
    expect(attachmentOf(emojiTitle).title).toBe(`✅ ${emojiTitle.title}`);
  });
});
