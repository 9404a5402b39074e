// The fake follows the document: the limits and errors a client can meet, so tests that use it
// meet them too.
import { describe, expect, it } from "vitest";
import { startFakeService, type FakeService } from "../helpers/fake-service.js";

async function call(
  fake: FakeService,
  method: string,
  path: string,
  body?: unknown,
  key = fake.apiKey,
) {
  const response = await fetch(`${fake.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const day = (offset: number) =>
  new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe("the local fake of the service", () => {
  it("answers errors with {title, detail, status, requestId}: 401 without a key, 403 for a member", async () => {
    const fake = await startFakeService({ role: "member" });
    const noKey = await call(fake, "GET", "/api/v0/sessions", undefined, "wrong");
    expect(noKey.status).toBe(401);
    expect(Object.keys(noKey.json).sort()).toEqual(["detail", "requestId", "status", "title"]);
    const member = await call(
      fake,
      "GET",
      `/api/v1/analytics/tokens?startDate=${day(-2)}&endDate=${day(-1)}`,
    );
    expect(member.status).toBe(403);
    expect((await call(fake, "GET", "/api/v0/sessions")).status).toBe(200);
  });

  it.each([
    ["today", `/api/v1/analytics/activity?startDate=${day(0)}&endDate=${day(0)}`, 400],
    ["a bad date", `/api/v1/analytics/activity?startDate=2026-1-1&endDate=${day(-1)}`, 400],
    ["start after end", `/api/v1/analytics/activity?startDate=${day(-1)}&endDate=${day(-3)}`, 400],
    [
      "limit 0 on /users",
      `/api/v1/analytics/users?startDate=${day(-1)}&endDate=${day(-1)}&limit=0`,
      400,
    ],
    [
      "an unknown group_by",
      `/api/v1/analytics/tools?startDate=${day(-1)}&endDate=${day(-1)}&group_by=x`,
      400,
    ],
    [
      "group_by=model",
      `/api/v1/analytics/tokens?startDate=${day(-1)}&endDate=${day(-1)}&group_by=model`,
      200,
    ],
    ["limit 101 on sessions", "/api/v0/sessions?limit=101", 400],
    ["limit 100 on history", "/api/v0/organization/enterprise-controls/history?limit=100", 200],
    ["an unknown session", "/api/v0/sessions/nope", 404],
  ])("GET with %s → %i", async (_, path, status) => {
    const fake = await startFakeService();
    expect((await call(fake, "GET", path)).status).toBe(status);
  });

  it("has no data before 2026-01-14 and pages /users by user id", async () => {
    const fake = await startFakeService();
    const early = await call(
      fake,
      "GET",
      "/api/v1/analytics/activity?startDate=2026-01-10&endDate=2026-01-14",
    );
    expect((early.json.data as { date: string }[]).map((r) => r.date)).toEqual(["2026-01-14"]);
    const first = await call(
      fake,
      "GET",
      `/api/v1/analytics/users?startDate=${day(-1)}&endDate=${day(-1)}&limit=2`,
    );
    const meta = first.json.meta as { has_more: boolean; next_cursor: string };
    expect(meta.has_more).toBe(true);
    const next = await call(
      fake,
      "GET",
      `/api/v1/analytics/users?startDate=${day(-1)}&endDate=${day(-1)}&limit=2&cursor=${meta.next_cursor}`,
    );
    const ids = [
      ...(first.json.data as { user_id: string }[]),
      ...(next.json.data as { user_id: string }[]),
    ].map((r) => r.user_id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each([
    [{ name: "" }, 400],
    [{ name: "x".repeat(64) }, 400],
    [{ name: "ok", repos: Array.from({ length: 21 }, (_, i) => `https://git.example/r${i}`) }, 400],
    [{ name: "ok", serviceAccountId: "" }, 400],
    [{ name: "ok", provider: "byom", remoteUser: "dev" }, 201],
  ])("POST /api/v0/computers %j → %i", async (body, status) => {
    const fake = await startFakeService();
    expect((await call(fake, "POST", "/api/v0/computers", body)).status).toBe(status);
  });

  it("creates sessions (201), takes messages, and applies scripted changes over time", async () => {
    const fake = await startFakeService();
    expect((await call(fake, "POST", "/api/v0/sessions", { cwd: "/x" })).status).toBe(400);
    const created = await call(fake, "POST", "/api/v0/sessions", {
      computerId: "comp-build",
      cwd: "/srv",
    });
    expect(created.status).toBe(201);
    const id = created.json.sessionId as string;
    const sent = await call(fake, "POST", `/api/v0/sessions/${id}/messages`, { text: "hi" });
    expect(sent.json).toMatchObject({ status: "running" });
    const listed = await call(fake, "GET", `/api/v0/sessions/${id}/messages?role=user`);
    expect((listed.json.messages as unknown[]).length).toBe(1);
    fake.schedule([{ afterMs: 50, ops: { op: "session", sessionId: id, status: "idle" } }]);
    await expect
      .poll(async () => (await call(fake, "GET", `/api/v0/sessions/${id}`)).json.status)
      .toBe("idle");
  });

  it("lists sessions oldest first (as the live service) or newest first, and filters by computerId", async () => {
    const fake = await startFakeService();
    fake.apply([
      { op: "session", sessionId: "a", status: "idle", computerId: "c1" },
      { op: "session", sessionId: "b", status: "idle", computerId: "c2" },
    ]);
    const ids = async (query: string) =>
      (
        (await call(fake, "GET", `/api/v0/sessions${query}`)).json.sessions as {
          sessionId: string;
        }[]
      ).map((s) => s.sessionId);
    expect(await ids("")).toEqual(["sess-idle", "sess-running", "a", "b"]);
    expect(await ids("?computerId=c2")).toEqual(["b"]);
    fake.listOrder = "newest";
    expect((await ids("")).slice(-2)).toEqual(["sess-running", "sess-idle"]);
  });

  it("fails on demand: an HTML 502, a body over 4 MiB, a slow answer", async () => {
    const fake = await startFakeService();
    fake.fail({ path: "/api/v0/computers", html: true });
    const html = await fetch(`${fake.url}/api/v0/computers`);
    expect([html.status, html.headers.get("content-type")]).toEqual([502, "text/html"]);
    fake.fail({ path: "/api/v0/computers", hugeBytes: 5 * 1024 * 1024 });
    const huge = await fetch(`${fake.url}/api/v0/computers`);
    expect((await huge.arrayBuffer()).byteLength).toBeGreaterThan(5 * 1024 * 1024);
    fake.fail({ path: "/api/v0/computers", delayMs: 300 });
    const started = Date.now();
    const slow = await call(fake, "GET", "/api/v0/computers");
    expect(slow.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it("scripts messages: role, isError, and the session's message count", async () => {
    const fake = await startFakeService();
    fake.apply({
      op: "message",
      sessionId: "sess-idle",
      role: "assistant",
      text: "x",
      isError: true,
    });
    const listed = await call(fake, "GET", "/api/v0/sessions/sess-idle/messages?role=assistant");
    expect(listed.json.messages).toMatchObject([{ role: "assistant", isError: true }]);
    expect((await call(fake, "GET", "/api/v0/sessions/sess-idle")).json.messageCount).toBe(13);
  });
});
