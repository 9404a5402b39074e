import { describe, expect, it } from "vitest";
import { detectComputers } from "../../../src/service/watch/detect-computers.js";
import { detectControls } from "../../../src/service/watch/detect-controls.js";
import { detectSessions } from "../../../src/service/watch/detect-sessions.js";
import type { Computer } from "../../../src/service/schemas.js";

const s = (sessionId: string, status: string | undefined, messageCount = 3) => ({
  sessionId,
  status,
  messageCount,
  title: `Title ${sessionId}`,
});

describe("detectSessions", () => {
  it("announces nothing on the first poll (the baseline)", () => {
    expect(detectSessions(undefined, [s("a", "running")]).facts).toEqual([]);
  });

  it("announces running or pending → idle once, with title and message count; not new sessions", () => {
    const first = detectSessions(undefined, [s("a", "running"), s("b", "pending"), s("c", "idle")]);
    const second = detectSessions(first.next, [
      s("a", "idle", 9),
      s("b", "idle"),
      s("c", "idle"),
      s("new", "idle"),
    ]);
    expect(second.facts).toEqual([
      { kind: "SessionIdle", sessionId: "a", title: "Title a", from: "running", messageCount: 9 },
      { kind: "SessionIdle", sessionId: "b", title: "Title b", from: "pending", messageCount: 3 },
    ]);
    expect(detectSessions(second.next, [s("a", "idle", 9)]).facts).toEqual([]);
  });

  it("announces a follow-up turn seen only as idle → idle with more messages, a new completedAt or updatedAt", () => {
    const base = detectSessions(undefined, [
      { ...s("m", "idle", 4), updatedAt: 1 },
      { ...s("c", "idle", undefined), messageCount: undefined, completedAt: 5, updatedAt: 1 },
      { ...s("u", "idle", undefined), messageCount: undefined, updatedAt: 1 },
      { ...s("same", "idle", 4), updatedAt: 1 },
    ]).next;
    const now = detectSessions(base, [
      { ...s("m", "idle", 6), updatedAt: 2 },
      { ...s("c", "idle", undefined), messageCount: undefined, completedAt: 9, updatedAt: 1 },
      { ...s("u", "idle", undefined), messageCount: undefined, updatedAt: 2 },
      // A settings change (PATCH) moves updatedAt but adds no message: no turn.
      { ...s("same", "idle", 4), updatedAt: 2 },
    ]);
    expect(now.facts.map((f) => [f.sessionId, f.from])).toEqual([
      ["m", "idle"],
      ["c", "idle"],
      ["u", "idle"],
    ]);
  });

  it("announces a session created after the last poll and already idle with messages", () => {
    const base = detectSessions(undefined, [s("old", "idle")]).next;
    const now = detectSessions(
      base,
      [
        { ...s("born", "idle", 2), createdAt: 102_000 },
        { ...s("empty", "idle", 0), createdAt: 102_000 },
        { ...s("older", "idle", 2), createdAt: 500 },
        // The service's clock 30 s behind this machine's: still new.
        { ...s("skewed", "idle", 2), createdAt: 70_000 },
      ],
      100_000,
    );
    expect(now.facts.map((f) => [f.sessionId, f.from])).toEqual([
      ["born", "new"],
      ["skewed", "new"],
    ]);
    expect(Object.keys(now.next).sort()).toEqual(["born", "empty", "old", "older", "skewed"]);
  });
});

const computer = (status: string, steps: Computer["provisioningSteps"] = []): Computer => ({
  id: "c1",
  name: "box",
  status,
  provisioningSteps: steps,
});

describe("detectComputers", () => {
  it("announces an error once, then the recovery once (not while it provisions again)", () => {
    const base = detectComputers(undefined, [computer("active")]);
    const failedStep = { name: "install-deps", status: "failed", error: "npm ci exited 1" };
    const broken = detectComputers(base.next, [computer("error", [failedStep])]);
    expect(broken.facts).toMatchObject([
      { kind: "ComputerError", failedSteps: [{ name: "install-deps", error: "npm ci exited 1" }] },
    ]);
    expect(detectComputers(broken.next, [computer("error", [failedStep])]).facts).toEqual([]);
    const retrying = detectComputers(broken.next, [
      computer("provisioning", [{ name: "install-deps", status: "running" }]),
    ]);
    expect(retrying.facts).toEqual([]);
    const back = detectComputers(retrying.next, [
      computer("active", [{ name: "install-deps", status: "completed" }]),
    ]);
    expect(back.facts).toMatchObject([{ kind: "ComputerRecovered", computerId: "c1" }]);
    expect(detectComputers(back.next, [computer("active")]).facts).toEqual([]);
  });

  it("announces a failed step on a computer whose status stays active", () => {
    const base = detectComputers(undefined, [computer("active")]);
    const step = { name: "clone-repos", status: "completed", error: "" };
    expect(detectComputers(base.next, [computer("active", [step])]).facts).toEqual([]);
    const failing = { name: "clone-repos", status: "running", error: "auth failed" };
    expect(detectComputers(base.next, [computer("active", [failing])]).facts).toMatchObject([
      { kind: "ComputerError", failedSteps: [{ name: "clone-repos" }] },
    ]);
  });
});

describe("detectControls", () => {
  const rev = (revision: number, settings: Record<string, unknown>) => ({
    revision,
    settings,
    user: { id: "u", email: "bob@example.com", name: "Bob" },
    updatedAt: "2026-11-20T10:00:00Z",
  });

  it("records the newest revision first, then announces a burst as one fact that counts it", () => {
    expect(detectControls(undefined, [rev(3, {})])).toEqual({ facts: [], next: 3 });
    const { facts, next } = detectControls(3, [rev(5, { a: 2 }), rev(4, { a: 1 }), rev(3, {})]);
    expect(next).toBe(5);
    expect(facts.map((f) => [f.revision, f.count, f.more, f.user])).toEqual([[5, 2, false, "Bob"]]);
    expect(facts[0]?.changes.map((c) => c.line)).toEqual(["a: added 2"]);
    expect(detectControls(5, [rev(5, { a: 2 })]).facts).toEqual([]);
  });

  it("says the count is a lower bound when the last seen revision was beyond the pages read", () => {
    const history = Array.from({ length: 30 }, (_, i) => rev(140 - i, { n: 140 - i }));
    const { facts } = detectControls(100, history);
    expect(facts.map((f) => [f.revision, f.count, f.more])).toEqual([[140, 30, true]]);
  });
});
