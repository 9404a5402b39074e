// The sessions part of a watch poll against the local fake: no finished turn is missed (created
// between two polls, a follow-up turn, a long list listed oldest first), an error is a failure,
// the computer filter is sent, and every poll stays within a few list requests.
import { describe, expect, it } from "vitest";
import type { ServiceContext } from "../../../src/service/client.js";
import {
  BUSY_PAGES,
  MAX_DESCRIBED,
  MAX_POLL_LISTS,
  MAX_SESSION_GETS,
  scanSessions,
} from "../../../src/service/watch/sessions.js";
import type { WatchState } from "../../../src/service/watch/state.js";
import type { SessionIdleFact } from "../../../src/service/watch/detect-sessions.js";
import { startFakeService, type FakeService } from "../../helpers/fake-service.js";

function contextFor(fake: FakeService): ServiceContext {
  return {
    service: { baseUrl: fake.url, apiKey: fake.apiKey },
    env: {},
    signal: AbortSignal.timeout(8000),
  };
}

// One scan; returns its facts and how many list requests it made.
async function scan(fake: FakeService, state: WatchState, computerIds: string[] = []) {
  const before = fake.requests.length;
  const result = await scanSessions(contextFor(fake), state, { now: Date.now(), computerIds });
  const made = fake.requests.slice(before);
  return { ...result, lists: made.filter((r) => r.path === "/api/v0/sessions"), made };
}

// `count` idle sessions created an hour ago (before any poll of the test): the first through the
// fake's own op, the rest copies of it (one op each would make 5,000 sessions cost seconds).
function addSessions(fake: FakeService, count: number, computerId = "comp-build") {
  const createdAt = Date.now() - 3_600_000;
  const op = { op: "session" as const, status: "idle", messageCount: 2, computerId, createdAt };
  fake.apply({ ...op, sessionId: "bulk-0" });
  const first = fake.state.sessions.at(-1);
  for (let i = 1; i < count; i++)
    fake.state.sessions.push({ ...structuredClone(first), sessionId: `bulk-${String(i)}` });
}
describe("scanSessions", () => {
  it("announces a session created and finished between two polls, with its last answer", async () => {
    const fake = await startFakeService();
    const state: WatchState = { version: 1 };
    expect((await scan(fake, state)).facts).toEqual([]);
    fake.apply([
      { op: "session", sessionId: "quick", status: "running", title: "Quick fix" },
      { op: "message", sessionId: "quick", role: "user", text: "fix it" },
      { op: "message", sessionId: "quick", role: "assistant", text: "Fixed the typo." },
      { op: "session", sessionId: "quick", status: "idle" },
    ]);
    const { facts } = await scan(fake, state);
    expect(facts).toMatchObject([
      { sessionId: "quick", from: "new", title: "Quick fix", lastMessage: "Fixed the typo." },
    ]);
    expect(facts[0]?.tokenUsage).toBeDefined();
    expect((await scan(fake, state)).facts).toEqual([]);
  });

  it("announces a follow-up turn (idle → running → idle between polls) once", async () => {
    const fake = await startFakeService();
    const state: WatchState = { version: 1 };
    await scan(fake, state);
    fake.apply([
      { op: "message", sessionId: "sess-idle", role: "user", text: "and the changelog?" },
      { op: "message", sessionId: "sess-idle", role: "assistant", text: "Changelog written." },
    ]);
    const { facts } = await scan(fake, state);
    expect(facts).toMatchObject([
      { sessionId: "sess-idle", from: "idle", messageCount: 14, lastMessage: "Changelog written." },
    ]);
    expect(facts[0]?.failure).toBeUndefined();
    expect((await scan(fake, state)).facts).toEqual([]);
  });

  it("announces an idle session whose last assistant message is an error as a failure", async () => {
    const fake = await startFakeService();
    const state: WatchState = { version: 1 };
    await scan(fake, state);
    fake.apply([
      { op: "message", sessionId: "sess-running", role: "assistant", text: "Working on it." },
      {
        op: "message",
        sessionId: "sess-running",
        role: "assistant",
        text: "Model provider error: quota exceeded",
        isError: true,
      },
      { op: "session", sessionId: "sess-running", status: "idle" },
    ]);
    const { facts } = await scan(fake, state);
    expect(facts).toMatchObject([
      {
        sessionId: "sess-running",
        failure: true,
        lastMessage: "Model provider error: quota exceeded",
      },
    ]);
  });

  it("sees the newest of 2,500 sessions listed oldest first, in a few list requests a poll", async () => {
    const fake = await startFakeService();
    addSessions(fake, 2500);
    fake.apply({ op: "session", sessionId: "bulk-1200", status: "running", messageCount: 2 });
    const state: WatchState = { version: 1 };
    const baseline = await scan(fake, state);
    expect(baseline.facts).toEqual([]);
    expect(baseline.lists.length).toBeLessThanOrEqual(30);
    fake.apply([
      { op: "session", sessionId: "newest", status: "idle", messageCount: 3 },
      { op: "session", sessionId: "bulk-1200", status: "idle", messageCount: 5 },
    ]);
    const second = await scan(fake, state);
    expect(second.facts.map((f) => f.sessionId).sort()).toEqual(["bulk-1200", "newest"]);
    expect(second.lists.length).toBeLessThanOrEqual(5);
    const third = await scan(fake, state);
    expect(third.facts).toEqual([]);
    expect(third.lists.length).toBeLessThanOrEqual(5);
    expect(fake.requests.every((r) => r.query.limit === undefined || r.query.limit === "100")).toBe(
      true,
    );
  });

  it("reads a newest-first list only down to the last poll", async () => {
    const fake = await startFakeService({ listOrder: "newest" });
    addSessions(fake, 1500);
    const state: WatchState = { version: 1 };
    await scan(fake, state);
    fake.apply({ op: "session", sessionId: "newest", status: "idle", messageCount: 1 });
    const second = await scan(fake, state);
    expect(second.facts.map((f) => f.sessionId)).toEqual(["newest"]);
    expect(second.lists.length).toBeLessThanOrEqual(4);
  });

  it("narrows every list to my computers, so a colleague's session is not announced", async () => {
    const fake = await startFakeService();
    const state: WatchState = { version: 1 };
    await scan(fake, state, ["comp-mine"]);
    fake.apply([
      {
        op: "session",
        sessionId: "mine",
        status: "idle",
        messageCount: 2,
        computerId: "comp-mine",
      },
      { op: "session", sessionId: "theirs", status: "idle", messageCount: 2, computerId: "comp-x" },
    ]);
    const { facts, lists } = await scan(fake, state, ["comp-mine"]);
    expect(facts.map((f) => f.sessionId)).toEqual(["mine"]);
    expect(lists.every((r) => r.query.computerId === "comp-mine")).toBe(true);
  });

  it("warns when the first poll meets a list longer than it reads, and catches up later", async () => {
    const fake = await startFakeService();
    addSessions(fake, 5200);
    const state: WatchState = { version: 1 };
    const first = await scan(fake, state);
    expect(first.warnings).toEqual([expect.stringContaining("longer than 50 pages")]);
    fake.apply({ op: "session", sessionId: "newest", status: "idle", messageCount: 1 });
    const second = await scan(fake, state);
    expect(second.lists.length).toBeLessThanOrEqual(8);
    expect(second.facts.map((f) => f.sessionId)).toEqual(["newest"]);
  });

  it("fetches the sessions that could have changed when the list leaves status out", async () => {
    const fake = await startFakeService({ listOmitsStatus: true });
    const state: WatchState = { version: 1 };
    await scan(fake, state);
    fake.apply({ op: "session", sessionId: "sess-running", status: "idle", messageCount: 9 });
    const { facts, made } = await scan(fake, state);
    expect(facts.map((f) => [f.sessionId, f.from])).toEqual([["sess-running", "running"]]);
    expect(made.some((r) => r.path === "/api/v0/sessions/sess-running")).toBe(true);
    expect(made.some((r) => r.path === "/api/v0/sessions/sess-idle")).toBe(false);
  });

  it("finds a follow-up turn of an old session deep in a long list within a few polls, once", async () => {
    const fake = await startFakeService();
    addSessions(fake, 1000);
    const state: WatchState = { version: 1 };
    await scan(fake, state);
    fake.apply({ op: "session", sessionId: "bulk-550", messageCount: 4 });
    const found: string[] = [];
    for (let poll = 0; poll < 8; poll++) {
      const { facts, lists } = await scan(fake, state);
      found.push(...facts.map((f) => f.sessionId));
      expect(lists.length).toBeLessThanOrEqual(4);
    }
    expect(found).toEqual(["bulk-550"]);
  });

  it.each([410, 404, 400, 422])(
    "drops a saved cursor the service answers %i and announces the next idle session",
    async (status) => {
      const fake = await startFakeService();
      addSessions(fake, 450);
      const state: WatchState = { version: 1 };
      await scan(fake, state);
      await scan(fake, state);
      expect(state.sessionCursors?.[""]?.tail ?? state.sessionCursors?.[""]?.sweep).toBeDefined();
      fake.expireCursors(status);
      fake.apply({ op: "session", sessionId: "sess-running", status: "idle", messageCount: 9 });
      const { facts } = await scan(fake, state);
      expect(facts.map((f) => f.sessionId)).toEqual(["sess-running"]);
      expect(fake.requests.some((r) => r.query.cursor?.startsWith("e1.") === true)).toBe(true);
      fake.apply({ op: "session", sessionId: "late", status: "idle", messageCount: 2 });
      expect((await scan(fake, state)).facts.map((f) => f.sessionId)).toEqual(["late"]);
    },
  );

  it("drops a saved cursor answered 500 twice in a row, after failing the first poll only", async () => {
    const fake = await startFakeService();
    addSessions(fake, 450);
    const state: WatchState = { version: 1 };
    await scan(fake, state);
    await scan(fake, state);
    fake.expireCursors(500);
    fake.apply({ op: "session", sessionId: "sess-running", status: "idle", messageCount: 9 });
    await expect(scan(fake, state)).rejects.toMatchObject({ status: 500 });
    expect(state.sessionCursors?.[""]?.strikes).toBe(1);
    const { facts } = await scan(fake, state);
    expect(facts.map((f) => f.sessionId)).toEqual(["sess-running"]);
    expect(state.sessionCursors?.[""]?.strikes).toBeUndefined();
  });

  it("keeps a saved cursor through a 401 or 429 (not the cursor's fault)", async () => {
    const fake = await startFakeService();
    addSessions(fake, 450);
    const state: WatchState = { version: 1 };
    await scan(fake, state);
    await scan(fake, state);
    const before = state.sessionCursors?.[""];
    fake.fail({ path: "/api/v0/sessions", status: 429, retryAfter: 5, times: 1 });
    await expect(scan(fake, state)).rejects.toMatchObject({ code: "SERVICE_RATE_LIMITED" });
    expect(state.sessionCursors?.[""]).toEqual(before);
  });
});

describe("a wave of finished turns", () => {
  it("tells every turn that ended on the next poll when their pages fit a poll, and prunes sessions gone", async () => {
    const fake = await startFakeService();
    addSessions(fake, 1000);
    for (let i = 0; i < 1000; i += 10)
      fake.apply({ op: "session", sessionId: `bulk-${String(i)}`, status: "running" });
    const state: WatchState = { version: 1 };
    await scan(fake, state);
    for (let i = 0; i < 1000; i += 10)
      fake.apply({
        op: "session",
        sessionId: `bulk-${String(i)}`,
        status: "idle",
        messageCount: 4,
      });
    fake.state.sessions.splice(
      fake.state.sessions.findIndex((s) => s["sessionId"] === "bulk-5"),
      1,
    );
    const wave = await scan(fake, state);
    expect(wave.facts).toHaveLength(100);
    expect(wave.lists.length).toBeLessThanOrEqual(MAX_POLL_LISTS);
    // Gone from the service: dropped once the sweep has been round the list without seeing it (10
    // pages, 2 a poll; up to two rounds, as it was seen when the first began).
    for (let poll = 0; poll < 12 && state.sessions?.["bulk-5"]; poll++)
      expect((await scan(fake, state)).facts).toEqual([]);
    expect(state.sessions?.["bulk-5"]).toBeUndefined();
    expect(Object.keys(state.sessions ?? {})).toHaveLength(fake.state.sessions.length);
  });

  // The design guarantee: a poll's requests are bounded by a constant, not by the list's length
  // (the document has no filter by update time). A tenth of the sessions run, spread over every
  // page, then all finish: each is told exactly once, within as many polls as its pages need.
  it.each([50, 500, 5000])(
    "with %i sessions, a poll costs at most a constant number of requests",
    { timeout: 30_000 },
    async (count) => {
      const fake = await startFakeService();
      addSessions(fake, count);
      const busy = Array.from({ length: count / 10 }, (_, i) => `bulk-${String(i * 10)}`);
      for (const id of busy) fake.apply({ op: "session", sessionId: id, status: "running" });
      const state: WatchState = { version: 1 };
      await scan(fake, state);
      for (const id of busy)
        fake.apply({ op: "session", sessionId: id, status: "idle", messageCount: 4 });
      const told: string[] = [];
      const polls = Math.ceil(count / 100 / BUSY_PAGES) + 1;
      for (let poll = 0; poll < polls; poll++) {
        const { facts, made } = await scan(fake, state);
        told.push(...facts.map((f) => f.sessionId));
        const lists = made.filter((r) => r.path === "/api/v0/sessions").length;
        const gets = made.filter((r) => /^\/api\/v0\/sessions\/[^/]+$/.test(r.path)).length;
        const described = made.filter((r) => r.path.endsWith("/messages")).length;
        expect({ lists, gets, described }).toEqual({
          lists: expect.toSatisfy((n: number) => n <= MAX_POLL_LISTS) as number,
          gets: expect.toSatisfy((n: number) => n <= MAX_SESSION_GETS) as number,
          described: expect.toSatisfy((n: number) => n <= MAX_DESCRIBED) as number,
        });
      }
      expect(told.sort()).toEqual([...busy].sort());
    },
  );
});

describe("the last answer of a finished turn", () => {
  async function finishedTurn(fake: FakeService): Promise<SessionIdleFact | undefined> {
    const state: WatchState = { version: 1 };
    await scan(fake, state);
    fake.apply([
      { op: "message", sessionId: "sess-running", role: "assistant", text: "Looking at it." },
      { op: "message", sessionId: "sess-running", role: "assistant", text: "Deployed 1.2.0." },
      {
        op: "message",
        sessionId: "sess-running",
        role: "assistant",
        text: "HIDDEN internal note",
        isUserVisible: false,
      },
      { op: "session", sessionId: "sess-running", status: "idle" },
    ]);
    const { facts } = await scan(fake, state);
    return facts[0];
  }

  it.each([
    ["oldest first", { messageOrder: "oldest" as const }],
    ["newest first", { messageOrder: "newest" as const }],
    ["newest first, no role", { messageOrder: "newest" as const, messagesOmitRole: true }],
  ])("quotes the newest visible answer, never a hidden one (%s)", async (_name, options) => {
    const fake = await startFakeService(options);
    const fact = await finishedTurn(fake);
    expect(fact?.lastMessage).toBe("Deployed 1.2.0.");
    expect(JSON.stringify(fact)).not.toContain("HIDDEN");
  });

  it("without createdAt or updatedAt, follows the parentId links, in either order", async () => {
    for (const messageOrder of ["oldest", "newest"] as const) {
      const fake = await startFakeService({ messageOrder, messagesOmitCreatedAt: true });
      const fact = await finishedTurn(fake);
      expect(fact?.lastMessage).toBe("Deployed 1.2.0.");
      expect(fact?.orderGuessed).toBeUndefined();
    }
  });
});
