// More than five turns ended in one poll: one notification lists them all (failures marked),
// with a reply command that is safe to paste.
import { describe, expect, it } from "vitest";
import type { Notification } from "../../../src/core/notification.js";
import { idleDigest } from "../../../src/service/watch/idle-digest.js";

const notice = (i: number, failure = false): Notification => ({
  id: `n${String(i)}`,
  event: "SessionIdle",
  failure,
  level: failure ? "failure" : "done",
  title: `t${String(i)}`,
  body: "b",
  project: "svc.example",
  sessionId: `sess-${String(i)}`,
  sessionTitle: `Task ${String(i)}`,
  lastMessage: `Done\nwith ${String(i)}`,
  timestamp: "2026-11-27T00:00:00Z",
  raw: {},
});

describe("idleDigest", () => {
  it("lists each session with its last answer, counts the failures, caps the list", () => {
    const digest = idleDigest([
      notice(0, true),
      ...Array.from({ length: 39 }, (_, i) => notice(i + 1)),
    ]);
    expect(digest.title).toBe("svc.example · 40 sessions finished (1 failed)");
    expect(digest.failure).toBe(true);
    const lines = digest.body.split("\n");
    expect(lines[0]).toBe("✗ Task 0 (sess-0): Done with 0");
    expect(lines[1]).toBe("✓ Task 1 (sess-1): Done with 1");
    expect(lines).toContain("… and 10 more (hook-notify sessions list).");
    expect(lines.at(-1)).toBe('Answer one: hook-notify sessions send sess-0 -- "…"');
    expect(digest.sessionId).toBeUndefined();
  });
});
