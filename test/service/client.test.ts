// The typed client against the local fake: pagination, the documented errors mapped onto codes,
// Retry-After, and the key never in an error message.
import { describe, expect, it } from "vitest";
import { HookNotifyError } from "../../src/errors.js";
import {
  getAnalytics,
  getSession,
  listComputers,
  listControlHistory,
  listSessions,
  listUserMetrics,
  retryInstallDeps,
  type ServiceContext,
} from "../../src/service/client.js";
import { makeCanary } from "../helpers/canary.js";
import { startFakeService, type FakeService } from "../helpers/fake-service.js";

function contextFor(fake: FakeService, apiKey = fake.apiKey, ms = 5000): ServiceContext {
  return { service: { baseUrl: fake.url, apiKey }, env: {}, signal: AbortSignal.timeout(ms) };
}

async function codeOf(work: Promise<unknown>): Promise<HookNotifyError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HookNotifyError);
  return error as HookNotifyError;
}

const utcDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe("service client", () => {
  it("walks every page of the sessions with the cursor", async () => {
    const fake = await startFakeService();
    for (let i = 0; i < 230; i++)
      fake.apply({ op: "session", sessionId: `s-${i}`, status: "idle" });
    const sessions = await collect(listSessions(contextFor(fake)));
    expect(sessions).toHaveLength(fake.state.sessions.length);
    expect(new Set(sessions.map((s) => s.sessionId)).size).toBe(sessions.length);
    const pages = fake.requests.filter((r) => r.path === "/api/v0/sessions");
    expect(pages.map((r) => r.query.cursor === undefined)).toEqual([true, false, false]);
    expect(pages.every((r) => r.query.limit === "100")).toBe(true);
  });

  it("walks the control history newest first across pages, and user metrics by cursor", async () => {
    const fake = await startFakeService();
    for (let i = 0; i < 4; i++) fake.apply({ op: "revision", settings: { n: i } });
    const history = await collect(listControlHistory(contextFor(fake), 2));
    expect(history.map((c) => c.revision)).toEqual([5, 4, 3, 2, 1]);
    const range = { startDate: utcDay(-3), endDate: utcDay(-1) };
    const users = await collect(listUserMetrics(contextFor(fake), range));
    const cursors = fake.requests
      .filter((r) => r.path.endsWith("/users"))
      .map((r) => r.query.cursor);
    expect(users.length).toBeGreaterThan(0);
    expect(cursors[0]).toBeUndefined();
  });

  it("maps 401, 403, 400 (today) and 404 onto codes that no retry can fix", async () => {
    const fake = await startFakeService({ role: "member" });
    const wrongKey = makeCanary("WrongKey");
    const unauthorized = await codeOf(getSession(contextFor(fake, wrongKey), "sess-idle"));
    expect(unauthorized.code).toBe("SERVICE_UNAUTHORIZED");
    expect(unauthorized.retryable).toBe(false);
    expect(unauthorized.message).not.toContain(wrongKey);
    const yesterday = { startDate: utcDay(-1), endDate: utcDay(-1) };
    const forbidden = await codeOf(getAnalytics(contextFor(fake), "activity", yesterday));
    expect(forbidden.code).toBe("SERVICE_FORBIDDEN");
    expect(forbidden.message).toMatch(/request req-/);
    fake.role = "owner";
    const today = { startDate: utcDay(0), endDate: utcDay(0) };
    expect((await codeOf(getAnalytics(contextFor(fake), "tokens", today))).code).toBe(
      "SERVICE_BAD_REQUEST",
    );
    expect((await codeOf(getSession(contextFor(fake), "nope"))).code).toBe("SERVICE_NOT_FOUND");
  });

  it("reads Retry-After of a 429, and times out on a hanging service", async () => {
    const fake = await startFakeService();
    fake.fail({ path: "/api/v0/computers", status: 429, retryAfter: 7 });
    const limited = await codeOf(listComputers(contextFor(fake)));
    expect(limited.code).toBe("SERVICE_RATE_LIMITED");
    expect(limited.retryAfterMs).toBe(7000);
    expect(limited.retryable).toBe(true);
    expect(limited.message).toContain("wait 7 s");
    expect(limited.message).not.toMatch(/will wait and retry/);
    fake.fail({ path: "/api/v0/computers", hang: true });
    const hung = await codeOf(listComputers(contextFor(fake, fake.apiKey, 300)));
    expect(hung.code).toBe("SERVICE_TIMEOUT");
  });

  it("retries install-deps (202) and reads the computer back", async () => {
    const fake = await startFakeService();
    const computer = await retryInstallDeps(contextFor(fake), "comp-build");
    expect(computer.id).toBe("comp-build");
    expect(fake.requests.at(-1)).toMatchObject({
      method: "POST",
      path: "/api/v0/computers/comp-build/install-deps",
    });
    const yesterday = { startDate: utcDay(-1), endDate: utcDay(-1) };
    const rows = await getAnalytics(contextFor(fake), "tokens", yesterday);
    expect(rows.map((r) => r.date)).toEqual([yesterday.startDate]);
  });

  it("keeps the status of an HTML error page (a gateway's 502), and says it is not JSON", async () => {
    const fake = await startFakeService();
    fake.fail({ path: "/api/v0/sessions", html: true, status: 502 });
    const error = await codeOf(getSession(contextFor(fake), "sess-idle"));
    expect(error.code).toBe("SERVICE_HTTP_STATUS");
    expect(error.status).toBe(502);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("answered 502");
  });

  it("reports a body over 4 MiB as too large, not as a network failure", async () => {
    const fake = await startFakeService();
    fake.fail({ path: "/api/v0/sessions", hugeBytes: 5 * 1024 * 1024 });
    const error = await codeOf(getSession(contextFor(fake), "x"));
    expect(error.code).toBe("SERVICE_INVALID_RESPONSE");
    expect(error.message).toContain("larger than 4 MiB");
  });

  it("explains a 403 on a v0 endpoint without speaking of analytics roles", async () => {
    const fake = await startFakeService();
    fake.fail({ path: "/api/v0/computers", status: 403 });
    const error = await codeOf(listComputers(contextFor(fake)));
    expect(error.code).toBe("SERVICE_FORBIDDEN");
    expect(error.message).not.toMatch(/analytics|Manager/i);
    fake.role = "member";
    const yesterday = { startDate: utcDay(-1), endDate: utcDay(-1) };
    const analytics = await codeOf(getAnalytics(contextFor(fake), "tools", yesterday));
    expect(analytics.message).toMatch(/Manager or Owner/);
  });

  it.each([".", "..", "-rf", "a/b", "", "x\ny"])(
    "refuses the id %j before any request (no dot segment reaches another endpoint)",
    async (id) => {
      const fake = await startFakeService();
      expect((await codeOf(getSession(contextFor(fake), id))).code).toBe("USAGE");
      expect((await codeOf(retryInstallDeps(contextFor(fake), id))).code).toBe("USAGE");
      expect(fake.requests).toHaveLength(0);
    },
  );

  it("encodes an id with reserved characters into one path segment", async () => {
    const fake = await startFakeService();
    await codeOf(getSession(contextFor(fake), "a?b#c d%"));
    expect(fake.requests.map((r) => r.path)).toEqual(["/api/v0/sessions/a%3Fb%23c%20d%25"]);
  });

  it("masks any 8+ character piece of the key a server echoes in its error", async () => {
    const key = makeCanary("EchoKey");
    const fake = await startFakeService({ apiKey: key });
    const echoed = `Unknown key ${key.slice(0, -3)} for ${key.slice(5, 20)}.`;
    fake.fail({ path: "/api/v0/computers", status: 400, body: { title: "Bad", detail: echoed } });
    const error = await codeOf(listComputers(contextFor(fake)));
    expect(error.message).toContain("Unknown key *** for ***.");
    for (let i = 0; i + 8 <= key.length; i++)
      expect(error.message).not.toContain(key.slice(i, i + 8));
  });

  it.each(["/api/v0", "/api/v0/", "/api", "/api/v1/analytics"])(
    "names a baseUrl ending in %s with the fix, before any request",
    async (tail) => {
      const fake = await startFakeService();
      const ctx = contextFor(fake);
      ctx.service = { ...ctx.service, baseUrl: `${fake.url}${tail}` };
      const error = await codeOf(listComputers(ctx));
      expect(error.message).toContain(`give the part before /api, e.g. "${fake.url}"`);
      expect(fake.requests).toHaveLength(0);
    },
  );
});
