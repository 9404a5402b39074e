import { describe, expect, it } from "vitest";
import { formatSlack, SLACK_LIMITS } from "../../../src/sinks/chat/format-slack.js";
import type { Notification } from "../../../src/core/notification.js";
import { attention, emojiTitle, failure, hostile, longBody, stop } from "./notifications.js";

const url = "https://hooks.slack.com/services/T000/B000/XXXX";
const origin = (event: string) => ({
  type: "context",
  elements: [{ type: "mrkdwn", text: `shop-api · Claude Code · ${event}` }],
});

interface Blocks {
  text: string;
  blocks: { type: string; text?: { type: string; text: string } }[];
}
const bodyOf = (n: Notification) => formatSlack(n, { service: "slack", url }).body as Blocks;

describe("formatSlack", () => {
  it.each([
    [stop, "✅", "Stop"],
    [attention, "🔔", "Notification"],
    [failure, "🚨", "SessionEnd"],
  ])("builds the documented blocks + fallback text (%#)", (notification, emoji, event) => {
    expect(formatSlack(notification, { service: "slack", url })).toEqual({
      url,
      headers: { "content-type": "application/json" },
      body: {
        text: `${emoji} ${notification.title}\n${notification.body}`,
        blocks: [
          {
            type: "header",
            text: { type: "plain_text", text: `${emoji} ${notification.title}`, emoji: true },
          },
          { type: "section", text: { type: "mrkdwn", text: notification.body } },
          origin(event),
        ],
      },
    });
  });

  it("trims a long body to 3000 characters in the section and 4000 in the fallback", () => {
    const body = bodyOf(longBody);
    const section = body.blocks[1]?.text?.text ?? "";
    expect(section.length).toBeLessThanOrEqual(SLACK_LIMITS.section);
    expect(section.length).toBeGreaterThan(SLACK_LIMITS.section - 20);
    expect(section.endsWith("…")).toBe(true);
    expect(body.text.length).toBeLessThanOrEqual(SLACK_LIMITS.fallback);
    expect(body.text.endsWith("…")).toBe(true);
    expect(section).not.toMatch(/&(?!amp;|lt;|gt;)/);
  });

  it("escapes & < > so <!channel> becomes &lt;!channel&gt;, and breaks @everyone", () => {
    const body = bodyOf(hostile);
    const section = body.blocks[1]?.text?.text ?? "";
    expect(section).toContain("&lt;!channel&gt;");
    expect(section).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(section).toContain("@\u200Beveryone @\u200Bhere");
    expect(section).toContain("$(rm -rf ~)");
    expect(body.text).toContain("&lt;!channel&gt;");
    expect(body.text).not.toMatch(/<!|@everyone|@here/);
  });

  it("keeps the header plain_text within 150 characters and emoji intact", () => {
    const long = { ...emojiTitle, title: "🎉".repeat(200) };
    const header = bodyOf(long).blocks[0]?.text?.text ?? "";
    expect(header.length).toBeLessThanOrEqual(SLACK_LIMITS.header);
    expect(header.endsWith("…")).toBe(true);
    expect(bodyOf(emojiTitle).blocks[0]?.text?.text).toBe(`✅ ${emojiTitle.title}`);
  });

  it("drops the section when the body is empty", () => {
    const types = bodyOf({ ...stop, body: "" }).blocks.map((block) => block.type);
    expect(types).toEqual(["header", "context"]);
  });
});
