// More than five turns ended in one poll: one notification tells them all (failures marked among
// those whose messages were read), the whole wave counted from the list, with a reply command
// that is safe to paste.
import { describe, expect, it } from "vitest";
import type { Notification } from "../../../src/core/notification.js";
import { idleDigest } from "../../../src/service/watch/idle-digest.js";
import { MAX_DESCRIBED } from "../../../src/service/watch/sessions.js";

const notice = (i: number, failure = false): Notification => ({
  id: `n${String(i)}`,
  event: "SessionIdle",
  failure,
  level: failure ? "failure" : "done",
  title: `t${String(i)}`,
  body: "b",
  project: "org-acme",
  sessionId: `sess-${String(i)}`,
  sessionTitle: `Task ${String(i)}`,
  messageCount: 10,
  tokenUsage: { serviceCredits: 1500 },
  ...(i < MAX_DESCRIBED ? { lastMessage: `Done\nwith ${String(i)}` } : {}),
  timestamp: "2026-11-27T00:00:00Z",
  raw: {},
});

describe("idleDigest", () => {
  it("lists each session with its last answer and counts the failures of a small wave", () => {
    const digest = idleDigest([
      notice(0, true),
      ...Array.from({ length: 9 }, (_, i) => notice(i + 1)),
    ]);
    expect(digest.title).toBe("org-acme · 10 sessions finished (1 failed)");
    expect(digest.failure).toBe(true);
    const lines = digest.body.split("\n");
    expect(lines[0]).toBe("10 sessions · 100 messages · 15k credits");
    expect(lines[1]).toBe("✗ Task 0 (sess-0): Done with 0");
    expect(lines[2]).toBe("✓ Task 1 (sess-1): Done with 1");
    expect(lines.at(-1)).toBe('Answer one: hook-notify sessions send sess-0 -- "…"');
    expect(digest.sessionId).toBeUndefined();
  });

  it("tells a wave of 1,000 whole from the list, reading the messages of the first 30 only", () => {
    const wave = [notice(0, true), ...Array.from({ length: 999 }, (_, i) => notice(i + 1))];
    const digest = idleDigest(wave);
    expect(digest.title).toBe("org-acme · 1,000 sessions finished (1 failed of 30 read)");
    const lines = digest.body.split("\n");
    expect(lines[0]).toBe("1,000 sessions · 10k messages · 1.5M credits");
    expect(lines[1]).toBe(
      "Last answers read for the first 30; the other 970 (·) as the session list tells them.",
    );
    expect(lines).toContain("✓ Task 29 (sess-29): Done with 29");
    expect(lines).toContain("· Task 30 (sess-30)");
    expect(lines).toContain("· Task 99 (sess-99)");
    expect(lines).toContain("… and 900 more (hook-notify sessions list --all).");
  });
});
