// The service commands (sessions, computers, usage, controls) run in-process against the local
// fake: what each sends, what it prints for people and for scripts, its exit code, the one line
// it prints when something is wrong, and that the key never shows.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runComputers, type ComputersRun } from "../../src/commands/computers-run.js";
import { runControls } from "../../src/commands/controls-run.js";
import type { CommandIo } from "../../src/commands/service-command.js";
import { runSessions, type SessionsRun } from "../../src/commands/sessions-run.js";
import { runUsage, type UsageRun } from "../../src/commands/usage-run.js";
import { createDeps } from "../../src/deps.js";
import { analyticsDay } from "../../scripts/fake-service/analytics.mjs";
import { makeCanary } from "../helpers/canary.js";
import { leaksOf, startFakeService } from "../helpers/fake-service.js";
import { tempHome } from "../helpers/run-bin.js";

async function setup(env: Record<string, string | undefined> = {}) {
  const key = makeCanary("CommandKey");
  const fake = await startFakeService({ apiKey: key });
  const home = tempHome({ FACTORY_API_KEY: key, ...env });
  const configPath = home.writeConfig({
    sinks: {},
    service: { baseUrl: fake.url, apiKey: "${FACTORY_API_KEY}" },
  });
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = {
    deps: { ...createDeps(), env: home.env, homedir: home.dir },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  };
  const noLeak = () => {
    expect(leaksOf(key, home.dir, { out: out.join("\n"), err: err.join("\n") })).toEqual([]);
  };
  return { key, fake, home, configPath, io, out, err, noLeak };
}

type Ctx = Awaited<ReturnType<typeof setup>>;
const sessions = (ctx: Ctx, o: Partial<SessionsRun> & Pick<SessionsRun, "action">) =>
  runSessions(ctx.io, {
    configPath: ctx.configPath,
    json: false,
    all: false,
    settings: {},
    ...o,
  });
const computers = (ctx: Ctx, o: Partial<ComputersRun> & Pick<ComputersRun, "action">) =>
  runComputers(ctx.io, { configPath: ctx.configPath, json: false, fields: {}, ...o });
const usage = (ctx: Ctx, o: Partial<UsageRun> & Pick<UsageRun, "kind">) =>
  runUsage(ctx.io, { configPath: ctx.configPath, json: false, ...o });
const day = (offset: number) =>
  new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const last = <T>(list: T[]): T => list.at(-1)!;

describe("hook-notify sessions", () => {
  it("list --json prints JSON; the table shows id, status and title", async () => {
    const ctx = await setup();
    expect(await sessions(ctx, { action: "list", json: true })).toBe(0);
    const listed = JSON.parse(ctx.out.join("\n")) as { sessionId: string }[];
    expect(listed.map((s) => s.sessionId)).toEqual(["sess-running", "sess-idle"]);
    ctx.out.length = 0;
    expect(await sessions(ctx, { action: "list", computer: "comp-x" })).toBe(0);
    expect(last(ctx.fake.requests).query).toMatchObject({ computerId: "comp-x", limit: "100" });
    expect(ctx.out).toEqual([]);
    expect(ctx.err).toEqual(["hook-notify sessions list: no sessions on computer comp-x."]);
    ctx.noLeak();
  });

  it("list shows the newest sessions of a list served oldest first, with a progress line", async () => {
    const ctx = await setup();
    const old = Date.now() - 86_400_000;
    for (let i = 0; i < 230; i++)
      ctx.fake.apply({
        op: "session",
        sessionId: `old-${String(i)}`,
        status: "idle",
        createdAt: old,
        updatedAt: old,
      });
    ctx.fake.apply({ op: "session", sessionId: "fresh", status: "idle", title: "Newest work" });
    expect(await sessions(ctx, { action: "list", limit: 3 })).toBe(0);
    expect(ctx.out[1]).toMatch(/^fresh\s+idle .* Newest work$/);
    expect(ctx.out).toHaveLength(4);
    expect(ctx.err).toEqual([
      "hook-notify sessions list: reading page 2… (the list comes oldest first and has no order parameter: the newest are at its end)",
      "hook-notify sessions list: reading page 3…",
    ]);
  });

  it('send ID "ship it" adds that message (with a file), and messages reads it back by role', async () => {
    const ctx = await setup();
    const file = join(ctx.home.dir, "notes.txt");
    writeFileSync(file, "notes for the agent");
    const code = await sessions(ctx, {
      action: "send",
      id: "sess-idle",
      text: "ship it",
      files: [file],
    });
    expect(code).toBe(0);
    const sent = JSON.parse(last(ctx.fake.requests).body) as Record<string, unknown>;
    expect(sent).toMatchObject({ text: "ship it", files: [{ parsedData: "notes for the agent" }] });
    expect(ctx.out.at(-1)).toMatch(/^Sent msg-.+; the session is running\.$/);
    ctx.out.length = 0;
    await sessions(ctx, {
      action: "messages",
      id: "sess-idle",
      role: "user",
      limit: 5,
      json: true,
    });
    expect(last(ctx.fake.requests).query).toMatchObject({ role: "user", limit: "100" });
    const messages = JSON.parse(ctx.out.join("\n")) as { content: { text: string }[] }[];
    expect(messages.map((m) => m.content[0]?.text)).toEqual(["ship it"]);
  });

  it("create (201), update and get; the documented limits are checked before sending", async () => {
    const ctx = await setup();
    const made = await sessions(ctx, {
      action: "create",
      computer: "comp-build",
      cwd: "/srv/app",
      settings: { model: "model-beta" },
      json: true,
    });
    expect(made).toBe(0);
    const id = (JSON.parse(ctx.out.join("\n")) as { sessionId: string }).sessionId;
    expect(await sessions(ctx, { action: "update", id, settings: { model: "model-gamma" } })).toBe(
      0,
    );
    expect(last(ctx.fake.requests)).toMatchObject({ method: "PATCH" });
    expect(await sessions(ctx, { action: "get", id, computer: "comp-build" })).toBe(0);
    expect(last(ctx.fake.requests).query).toEqual({ computerId: "comp-build" });
    expect(ctx.out.join("\n")).toContain("Model: model-gamma");
    const before = ctx.fake.requests.length;
    expect(await sessions(ctx, { action: "create", computer: "c", cwd: "x".repeat(4097) })).toBe(2);
    expect(await sessions(ctx, { action: "messages", id, limit: 0 })).toBe(2);
    expect(await sessions(ctx, { action: "send", id: "sess-idle", text: "  " })).toBe(2);
    expect(ctx.fake.requests.length).toBe(before);
    expect(ctx.err.every((line) => line.includes("USAGE"))).toBe(true);
  });
});

describe("hook-notify computers, usage, controls", () => {
  it("computers create, update, list --host --json, retry", async () => {
    const ctx = await setup();
    const host = "7d9f0c1e-2b3a-4c5d-8e9f-0a1b2c3d4e5f";
    const fields = { name: "gpu-box", provider: "byom" as const, repos: ["https://git.example/a"] };
    expect(await computers(ctx, { action: "create", host, fields, json: true })).toBe(0);
    const id = (JSON.parse(ctx.out.join("\n")) as { id: string }).id;
    expect(await computers(ctx, { action: "update", id, fields: { name: "gpu-2" } })).toBe(0);
    ctx.out.length = 0;
    expect(await computers(ctx, { action: "list", host, json: true })).toBe(0);
    expect(last(ctx.fake.requests).query).toMatchObject({ hostId: host });
    expect((JSON.parse(ctx.out.join("\n")) as { name: string }[]).map((c) => c.name)).toEqual([
      "gpu-2",
    ]);
    expect(await computers(ctx, { action: "update", id, host: "not-a-uuid" })).toBe(2);
    expect(await computers(ctx, { action: "retry", id: "comp-build" })).toBe(0);
    expect(ctx.out.at(-1)).toContain("Retrying install-deps on build-box (comp-build)");
  });

  it("usage: grouped rows, one user, the digest, and a day the service rejects is caught first", async () => {
    const ctx = await setup();
    const range = { from: day(-3), to: day(-1) };
    expect(await usage(ctx, { kind: "tokens", ...range, groupBy: "model", json: true })).toBe(0);
    expect(last(ctx.fake.requests).query).toMatchObject({ group_by: "model" });
    const answer = JSON.parse(ctx.out.join("\n")) as {
      data: { group_key: string }[];
      meta: { org_id: string };
    };
    const rows = answer.data;
    expect(answer.meta.org_id).toEqual(expect.any(String));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => typeof r.group_key === "string")).toBe(true);
    ctx.out.length = 0;
    expect(await usage(ctx, { kind: "activity", ...range })).toBe(0);
    expect(ctx.out[0]).toMatch(/^Organisation \S+ · .* \(UTC\)$/);
    expect(ctx.out[1]).toMatch(/^DAY\s+ACTIVE USERS\s+SESSIONS\s+MESSAGES\s+USER MESSAGES$/);
    expect(ctx.out[5]).toMatch(/^TOTAL\s/);
    expect(ctx.out.join("\n")).toMatch(/Active users per day\n( {2}\S+ #* +\S+\n){3}/);
    ctx.out.length = 0;
    expect(await usage(ctx, { kind: "digest" })).toBe(0);
    expect(ctx.out[0]).toBe(`org-fake · Usage on ${day(-1)}`);
    ctx.out.length = 0;
    expect(await usage(ctx, { kind: "digest", week: true, json: true })).toBe(0);
    expect(last(ctx.fake.requests).query).toMatchObject({ startDate: day(-7), endDate: day(-1) });
    const week = JSON.parse(ctx.out.join("\n")) as { date: string; credits: number };
    expect(week.date).toBe(`${day(-7)} to ${day(-1)}`);
    const days = Array.from({ length: 7 }, (_, i) => analyticsDay(day(-7 + i)));
    expect(week.credits).toBe(days.reduce((t, d) => t + d.tokens.billable_tokens, 0));
    const before = ctx.fake.requests.length;
    expect(await usage(ctx, { kind: "tokens", from: day(0), to: day(0) })).toBe(2);
    expect(await usage(ctx, { kind: "tools", ...range, groupBy: "model" })).toBe(2);
    expect(ctx.fake.requests.length).toBe(before);
  });

  it("controls history: each revision with its diff, keys masked", async () => {
    const ctx = await setup();
    const modelKey = makeCanary("ModelKey");
    ctx.fake.apply({
      op: "revision",
      settings: { commandDenylist: ["rm -rf /"], customModels: [{ model: "m", apiKey: modelKey }] },
    });
    expect(await runControls(ctx.io, { configPath: ctx.configPath, limit: 1, json: false })).toBe(
      0,
    );
    expect(ctx.out[0]).toMatch(/^Revision 2 by Bob at /);
    expect(ctx.out.join("\n")).toContain("customModels[0].apiKey: added ***");
    expect(await runControls(ctx.io, { configPath: ctx.configPath, limit: 2, json: true })).toBe(0);
    expect(leaksOf(modelKey, ctx.home.dir, { out: ctx.out.join("\n") })).toEqual([]);
  });
});

describe("what the service commands say when something is wrong", () => {
  it("an unset FACTORY_API_KEY is named, not 'no service in the config'", async () => {
    const ctx = await setup({ FACTORY_API_KEY: undefined });
    expect(await sessions(ctx, { action: "list" })).toBe(1);
    expect(ctx.err).toEqual([expect.stringMatching(/FACTORY_API_KEY is not set.*Export it/)]);
    expect(ctx.fake.requests).toEqual([]);
  });

  it("waits out a short Retry-After once; a long one is said with how long, and not waited", async () => {
    const ctx = await setup();
    ctx.fake.fail({ path: "/api/v0/computers", status: 429, retryAfter: 1 });
    expect(await computers(ctx, { action: "list" })).toBe(0);
    expect(ctx.err).toEqual(["hook-notify computers list: rate limited; trying again in 1 s."]);
    ctx.fake.fail({ path: "/api/v0/computers", status: 429, retryAfter: 90, times: 2 });
    const started = Date.now();
    expect(await computers(ctx, { action: "list" })).toBe(3);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(ctx.err.at(-1)).toMatch(/SERVICE_RATE_LIMITED.*wait 1 min 30 s.*run it again in 1 min/);
    ctx.noLeak();
  });
});

describe("every documented field and parameter reaches the service", () => {
  it("computers create and update send each body field; 21 repos are refused first", async () => {
    const ctx = await setup();
    const fields = {
      name: "box",
      provider: "hosted" as const,
      remoteUser: "dev",
      repos: ["https://git.example/a"],
      autoInstallDeps: true,
      serviceAccountId: "sa-1",
      source: { kind: "scratch" },
    };
    expect(await computers(ctx, { action: "create", fields })).toBe(0);
    expect(JSON.parse(last(ctx.fake.requests).body)).toEqual(fields);
    const id = ctx.fake.state.computers.at(-1)!.id as string;
    expect(await computers(ctx, { action: "update", id, fields: { remoteUser: "ops" } })).toBe(0);
    expect(JSON.parse(last(ctx.fake.requests).body)).toEqual({ remoteUser: "ops" });
    const before = ctx.fake.requests.length;
    const many = Array.from({ length: 21 }, (_, i) => `https://git.example/r${String(i)}`);
    expect(await computers(ctx, { action: "create", fields: { name: "x", repos: many } })).toBe(2);
    expect(ctx.fake.requests.length).toBe(before);
  });

  it("sessions send carries images and computerId; messages pages by cursor with computerId", async () => {
    const ctx = await setup();
    const image = join(ctx.home.dir, "shot.png");
    writeFileSync(image, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const sent = { action: "send" as const, id: "sess-idle", text: "see", images: [image] };
    expect(await sessions(ctx, { ...sent, computer: "comp-build" })).toBe(0);
    expect(JSON.parse(last(ctx.fake.requests).body)).toEqual({
      text: "see",
      images: [{ data: "iVBORw0KGgo=" }],
      computerId: "comp-build",
    });
    for (let i = 0; i < 150; i++)
      ctx.fake.apply({
        op: "message",
        sessionId: "sess-idle",
        role: "assistant",
        text: `m${String(i)}`,
      });
    ctx.out.length = 0;
    const query = { action: "messages" as const, id: "sess-idle", limit: 2, json: true };
    expect(await sessions(ctx, { ...query, computer: "comp-build" })).toBe(0);
    const pages = ctx.fake.requests.filter(
      (r) => r.path.endsWith("/messages") && r.method === "GET",
    );
    expect(pages.map((r) => [r.query.cursor !== undefined, r.query.computerId])).toEqual([
      [false, "comp-build"],
      [true, "comp-build"],
    ]);
    const shown = JSON.parse(ctx.out.join("\n")) as { content: { text: string }[] }[];
    expect(shown.map((m) => m.content[0]?.text)).toEqual(["m148", "m149"]);
    const settings = { tokenUsage: { inputTokens: 1 } };
    expect(await sessions(ctx, { action: "update", id: "sess-idle", settings })).toBe(2);
  });

  it("usage: group_by tool_name and client, users of one user, the tools row's hooks", async () => {
    const ctx = await setup();
    const range = { from: day(-2), to: day(-1), json: true };
    expect(await usage(ctx, { kind: "tools", ...range, groupBy: "tool_name" })).toBe(0);
    expect(await usage(ctx, { kind: "activity", ...range, groupBy: "client" })).toBe(0);
    const clients = (JSON.parse(ctx.out.pop()!) as { data: { group_key: string }[] }).data;
    expect(new Set(clients.map((r) => r.group_key))).toEqual(new Set(["terminal-ui", "web"]));
    ctx.out.length = 0;
    expect(await usage(ctx, { kind: "users", ...range, user: "ada@example.com" })).toBe(0);
    const users = (JSON.parse(ctx.out.join("\n")) as { data: { user_email: string }[] }).data;
    expect(users.map((u) => u.user_email)).toEqual(["ada@example.com", "ada@example.com"]);
    ctx.out.length = 0;
    expect(await usage(ctx, { kind: "tools", ...range })).toBe(0);
    expect(ctx.out.join("\n")).toContain('"hooks_by_event"');
    ctx.out.length = 0;
    expect(await usage(ctx, { kind: "productivity", ...range })).toBe(0);
    const rows = (JSON.parse(ctx.out.join("\n")) as { data: Record<string, unknown>[] }).data;
    expect(rows.map((r) => r["date"])).toEqual([day(-2), day(-1)]);
    expect(Object.keys(rows[0]!)).toEqual(expect.arrayContaining(["by_extension", "by_language"]));
  });
});
