// The digest's text: one heading per session with what ended, failed and waits, the last message,
// outside text made inert; deterministic ids; bounded size.
import { describe, expect, it } from "vitest";
import { composeDigest, DIGEST_BODY_MAX } from "../../src/message/digest.js";
import type { Notification } from "../../src/core/notification.js";
import { sampleNotification } from "../helpers/sample-notification.js";

function part(i: number, overrides: Partial<Notification> = {}): Notification {
  return sampleNotification({
    id: `n-${String(i)}`,
    event: "Stop",
    failure: false,
    level: "done",
    title: `p${String(i)} · Agent finished`,
    project: `p${String(i)}`,
    sessionId: `s-${String(i)}`,
    sessionTitle: `Task ${String(i)}`,
    lastMessage: `said ${String(i)}`,
    ...overrides,
  });
}

describe("composeDigest", () => {
  it("groups by session and says what ended, failed and waits, with the last message", () => {
    const digest = composeDigest([
      part(1),
      part(2, {
        event: "StopFailure",
        failure: true,
        level: "failure",
        title: "p2 · Agent stopped on an error (rate_limit)",
      }),
      part(1, { id: "n-1b", lastMessage: "said later" }),
      part(3, {
        event: "Notification",
        level: "attention",
        message: "Claude needs your permission to use Bash",
        lastMessage: undefined,
      }),
    ]);
    expect(digest.title).toBe("While you were away: 3 sessions, 1 failed, 1 waiting for you");
    expect(digest.body).toBe(
      [
        "• p1 · Task 1",
        "  ended: turn finished ×2",
        "  last: said later",
        "• p2 · Task 2",
        "  failed: Agent stopped on an error (rate_limit)",
        "  last: said 2",
        "• p3 · Task 3",
        "  waits for you: Claude needs your permission to use Bash",
      ].join("\n"),
    );
    expect(digest.level).toBe("failure");
    expect(digest.digest?.map((p) => p.id)).toEqual(["n-1", "n-2", "n-1b", "n-3"]);
    // No single session's details: the digest speaks for all of them.
    expect(digest.sessionId).toBeUndefined();
    expect(digest.lastMessage).toBeUndefined();
    expect(digest.raw).toEqual({});
  });

  it("a usage limit and a notice get lines of their own, and a digest of only them stays quiet", () => {
    const limit = part(1, {
      event: "StopFailure",
      level: "limit",
      title: "p1 · Agent hit a usage limit, resets at 14:00",
      lastMessage: undefined,
    });
    const notice = part(2, {
      event: "Notification",
      level: "info",
      message: "Claude Code login successful",
      lastMessage: undefined,
    });
    const digest = composeDigest([limit, notice]);
    expect(digest.body).toBe(
      [
        "• p1 · Task 1",
        "  usage limit: Agent hit a usage limit, resets at 14:00",
        "• p2 · Task 2",
        "  noted: Claude Code login successful",
      ].join("\n"),
    );
    expect(digest.level).toBe("limit");
    expect(digest.failure).toBe(false);
    expect(composeDigest([notice]).level).toBe("info");
    expect(composeDigest([notice, part(3)]).level).toBe("done");
  });

  it("makes outside text inert and keeps each entry on its lines", () => {
    const digest = composeDigest([
      part(1, { sessionTitle: "evil\u202Etitle\nnext\u001b[31m", lastMessage: "a\u2028b\u0007c" }),
    ]);
    for (const hidden of ["\u202E", "\u2028", "\u0007", "\u001b"])
      expect(digest.body).not.toContain(hidden);
    expect(digest.body.split("\n")).toHaveLength(3);
  });

  it("is deterministic and bounded", () => {
    const many = Array.from({ length: 40 }, (_, i) => part(i, { lastMessage: "x".repeat(500) }));
    const a = composeDigest(many);
    expect(composeDigest(many).id).toBe(a.id);
    expect(a.id).toMatch(/^digest-[0-9a-f]{12}$/);
    expect(Array.from(a.body).length).toBeLessThanOrEqual(DIGEST_BODY_MAX);
    const listed = a.body.split("\n").filter((line) => line.startsWith("• ")).length;
    expect(a.body).toMatch(new RegExp(`\\n… and ${String(40 - listed)} more sessions$`));
    expect(listed).toBeGreaterThan(10);
    const short = Array.from({ length: 25 }, (_, i) => part(i));
    expect(composeDigest(short).body).toMatch(/\n… and 5 more sessions$/);
    expect(() => composeDigest([])).toThrow();
  });
});
