import { describe, expect, it } from "vitest";
import { HookNotifyError } from "../../../src/errors.js";
import { formatNtfy, NTFY_LIMITS, splitTopicUrl } from "../../../src/sinks/chat/format-ntfy.js";
import type { Notification } from "../../../src/core/notification.js";
import { attention, emojiTitle, failure, hostile, longBody, stop } from "./notifications.js";

const url = "https://ntfy.sh/mytopic";

interface NtfyBody {
  topic: string;
  title: string;
  message: string;
  priority: number;
  tags: string[];
}
const bodyOf = (n: Notification) => formatNtfy(n, { service: "ntfy", url }).body as NtfyBody;

describe("formatNtfy", () => {
  it.each([
    [stop, 3, "white_check_mark", "Stop"],
    [attention, 4, "bell", "Notification"],
    [failure, 5, "rotating_light", "SessionEnd"],
  ])("publishes JSON to the server root (%#)", (notification, priority, tag, event) => {
    expect(formatNtfy(notification, { service: "ntfy", url })).toEqual({
      url: "https://ntfy.sh/",
      headers: { "content-type": "application/json" },
      body: {
        topic: "mytopic",
        title: notification.title,
        message: `${notification.body}\n\nshop-api · Claude Code · ${event}`,
        priority,
        tags: [tag],
      },
    });
  });

  it("applies priority, tags and token options", () => {
    const request = formatNtfy(failure, {
      service: "ntfy",
      url,
      priority: 2,
      tags: ["robot"],
      token: "tk_secret",
    });
    expect(request.headers.authorization).toBe("Bearer tk_secret");
    expect(request.body).toMatchObject({ priority: 2, tags: ["rotating_light", "robot"] });
  });

  it.each([
    ["https://ntfy.sh/mytopic", "https://ntfy.sh/", "mytopic"],
    ["https://ntfy.example.com/mytopic/", "https://ntfy.example.com/", "mytopic"],
    ["http://127.0.0.1:8080/ntfy/alerts-1?x=y", "http://127.0.0.1:8080/ntfy/", "alerts-1"],
  ])("splits %s into root and topic", (topicUrl, root, topic) => {
    expect(splitTopicUrl(topicUrl)).toEqual({ root, topic });
  });

  it.each(["https://ntfy.sh/", "https://ntfy.sh/bad.topic"])("rejects %s", (topicUrl) => {
    expect(() => splitTopicUrl(topicUrl)).toThrow(HookNotifyError);
  });

  it("trims a long message to 4,096 UTF-8 bytes", () => {
    const { message } = bodyOf(longBody);
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(NTFY_LIMITS.messageBytes);
    expect(Buffer.byteLength(message)).toBeGreaterThan(NTFY_LIMITS.messageBytes - 16);
    expect(message.endsWith("…")).toBe(true);
  });

  it("keeps emoji in the title (JSON, not headers)", () => {
    expect(bodyOf(emojiTitle).title).toBe(emojiTitle.title);
  });

  it("leaves no mention syntax in title or message", () => {
    const { title, message } = bodyOf(hostile);
    expect(`${title}\n${message}`).not.toMatch(/@everyone|@here|<!|<users\//);
  });
});
