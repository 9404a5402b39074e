import { describe, expect, it } from "vitest";
import { formatTeams, TEAMS_LIMITS } from "../../../src/sinks/chat/format-teams.js";
import type { Notification } from "../../../src/core/notification.js";
import { attention, emojiTitle, failure, hostile, longBody, stop } from "./notifications.js";

const url =
  "https://prod-00.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?sig=s3cret";

interface Card {
  attachments: { content: { body: { text: string; color?: string }[] } }[];
}
const blocksOf = (n: Notification) =>
  (formatTeams(n, { service: "teams", url }).body as Card).attachments[0]!.content.body;

describe("formatTeams", () => {
  it.each([
    [stop, "✅", "Good", "Stop"],
    [attention, "🔔", "Warning", "Notification"],
    [failure, "🚨", "Attention", "SessionEnd"],
  ])(
    "wraps an Adaptive Card 1.4 in a Workflows message (%#)",
    (notification, emoji, color, event) => {
      expect(formatTeams(notification, { service: "teams", url })).toEqual({
        url,
        headers: { "content-type": "application/json" },
        body: {
          type: "message",
          attachments: [
            {
              contentType: "application/vnd.microsoft.card.adaptive",
              contentUrl: null,
              content: {
                $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
                type: "AdaptiveCard",
                version: "1.4",
                msteams: { width: "Full" },
                body: [
                  {
                    type: "TextBlock",
                    text: `${emoji} ${notification.title}`,
                    size: "Medium",
                    weight: "Bolder",
                    color,
                    wrap: true,
                  },
                  { type: "TextBlock", text: notification.body, wrap: true },
                  {
                    type: "TextBlock",
                    text: `shop-api · Claude Code · ${event}`,
                    isSubtle: true,
                    size: "Small",
                    wrap: true,
                  },
                ],
              },
            },
          ],
        },
      });
    },
  );

  it("keeps a long message under 28 KB of JSON, the body ending with …", () => {
    const request = formatTeams(longBody, { service: "teams", url });
    expect(Buffer.byteLength(JSON.stringify(request.body))).toBeLessThanOrEqual(
      TEAMS_LIMITS.payloadBytes,
    );
    expect(blocksOf(longBody)[1]!.text.endsWith("…")).toBe(true);
  });

  it("stays under 28 KB even when everything is long and multi-byte", () => {
    const huge = { ...longBody, title: "😀\n".repeat(5000), project: "é".repeat(5000) };
    const request = formatTeams(huge, { service: "teams", url });
    expect(Buffer.byteLength(JSON.stringify(request.body))).toBeLessThanOrEqual(
      TEAMS_LIMITS.payloadBytes,
    );
  });

  it("breaks mentions, including <at> tags", () => {
    for (const block of blocksOf(hostile)) {
      expect(block.text).not.toMatch(/@everyone|@here|<at>|<!|<users\//i);
    }
  });

  it("keeps the body's lines as lines (a TextBlock needs a blank line to break)", () => {
    const twoLines = { ...stop, body: "All green\nSession: Fix checkout" };
    expect(blocksOf(twoLines)[1]!.text).toBe("All green\n\nSession: Fix checkout");
  });

  it("keeps emoji in the title", () => {
    expect(blocksOf(emojiTitle)[0]!.text).toBe(`✅ ${emojiTitle.title}`);
  });
});
