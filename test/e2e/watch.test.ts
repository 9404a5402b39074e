// `hook-notify watch --once` through the built binary against the local fake service, to a local
// webhook: each scripted change is announced exactly once however often it runs, and no key (the
// API key, or one inside the enterprise controls) shows up in any output, file or message.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyticsDay } from "../../scripts/fake-service/analytics.mjs";
import { makeCanary } from "../helpers/canary.js";
import { leaksOf, startFakeService, workerDone } from "../helpers/fake-service.js";
import { startHttpServer } from "../helpers/http-server.js";
import { runBin, tempHome, type BinResult } from "../helpers/run-bin.js";

interface Delivered {
  data: { event: string; title: string; body: string; failure: boolean };
}

async function setup(
  options: {
    role?: "owner" | "member";
    alerts?: Record<string, number>;
    service?: Record<string, unknown>;
  } = {},
) {
  const key = makeCanary("WatchKey");
  const fake = await startFakeService({ apiKey: key, role: options.role ?? "owner" });
  const hook = await startHttpServer();
  const home = tempHome({ FACTORY_API_KEY: key });
  home.writeConfig({
    sinks: { team: { type: "webhook", url: `${hook.url}/in` } },
    service: {
      baseUrl: fake.url,
      apiKey: "${FACTORY_API_KEY}",
      ...(options.alerts ? { alerts: options.alerts } : {}),
      ...options.service,
    },
  });
  const outputs: BinResult[] = [];
  const watchOnce = async (...extra: string[]) => {
    const result = await runBin(["watch", "--once", ...extra], { env: home.env });
    outputs.push(result);
    return result;
  };
  const delivered = () => hook.requests.map((r) => JSON.parse(r.body) as Delivered);
  const events = () =>
    delivered()
      .map((d) => d.data.event)
      .sort();
  return { key, fake, hook, home, outputs, watchOnce, delivered, events };
}

// Waits for `count` deliveries, then for the outbox to be empty (nothing else on its way).
async function settle(ctx: Awaited<ReturnType<typeof setup>>, count: number) {
  await ctx.hook.waitForRequests(count, 20_000);
  const pending = join(ctx.home.dir, "state", "hook-notify", "outbox", "pending");
  await expect.poll(() => readdirSync(pending).length, { timeout: 20_000 }).toBe(0);
  expect(ctx.hook.requests).toHaveLength(count);
  await workerDone(ctx.home.dir);
}

const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

describe("hook-notify watch --once", () => {
  it(
    "announces each change exactly once: session idle, computer error and recovery, controls, digest",
    { timeout: 120_000 },
    async () => {
      const ctx = await setup();
      const modelKey = makeCanary("ModelKey");

      // The install session of the build computer, finished before the baseline.
      ctx.fake.apply([
        { op: "session", sessionId: "sess-install", status: "idle", computerId: "comp-build" },
        { op: "message", sessionId: "sess-install", role: "assistant", text: "npm ERR! ENOLOCK" },
      ]);

      // First run: the baseline (nothing announced) and yesterday's digest.
      const first = await ctx.watchOnce("--digest", "daily");
      expect(first.code).toBe(0);
      await settle(ctx, 1);
      const day = analyticsDay(yesterday());
      const digest = ctx.delivered()[0]!.data;
      expect(digest.event).toBe("DailyDigest");
      expect(digest.title).toContain(`Usage on ${yesterday()}`);
      expect(digest.body).toContain(`active users ${day.activity.daily_active_users}`);
      expect(digest.body).toContain(`sessions ${day.activity.sessions}`);
      expect(digest.body).toContain(`tool calls ${day.tools.tool_calls}`);
      expect(digest.body).toContain(
        `Commits ${day.productivity.git_commits} · PRs ${day.productivity.git_prs_created}`,
      );
      const top = [...day.tokens.by_model].sort(
        (a, b) => b.billable_tokens - a.billable_tokens,
      )[0]!;
      expect(digest.body).toContain(`Top models: ${top.model_id}`);
      const analytics = ctx.fake.requests.filter((r) => r.path.startsWith("/api/v1/analytics/"));
      expect(
        analytics.every(
          (r) => r.query.endDate === yesterday() && r.query.startDate === yesterday(),
        ),
      ).toBe(true);

      // The scripted changes.
      ctx.fake.apply([
        { op: "session", sessionId: "sess-running", status: "idle", messageCount: 9 },
        { op: "session", sessionId: "sess-new", status: "idle", title: "Brand new" },
        { op: "computer", id: "comp-build", status: "error" },
        {
          op: "step",
          computerId: "comp-build",
          name: "install-deps",
          status: "failed",
          error: "npm ci exited with code 1",
          installSessionId: "sess-install",
        },
        {
          op: "revision",
          settings: {
            ...ctx.fake.state.history[0]!.settings,
            commandDenylist: ["rm -rf /", "curl | sh"],
            customModels: [
              { model: "m", displayName: "Mine", baseUrl: "https://llm.example", apiKey: modelKey },
            ],
          },
        },
      ]);
      for (let run = 0; run < 2; run++) {
        const result = await ctx.watchOnce("--digest", "daily");
        expect(result.code).toBe(0);
      }
      await settle(ctx, 4);
      expect(ctx.events()).toEqual([
        "ComputerError",
        "ControlsChanged",
        "DailyDigest",
        "SessionIdle",
      ]);
      const byEvent = (event: string) => ctx.delivered().find((d) => d.data.event === event)!.data;
      expect(byEvent("SessionIdle").title).toContain("Fix the flaky checkout test");
      expect(byEvent("SessionIdle").body).toContain("after 9 messages");
      expect(byEvent("ComputerError").body).toContain(
        "install-deps failed: npm ci exited with code 1",
      );
      expect(byEvent("ComputerError").body).toContain("hook-notify computers retry comp-build");
      expect(byEvent("ComputerError").body).toContain(
        "The install session said:\n- npm ERR! ENOLOCK",
      );
      expect(byEvent("ComputerError").failure).toBe(true);
      const controls = byEvent("ControlsChanged");
      expect(controls.title).toContain("revision 2");
      expect(controls.body).toContain("By Bob at");
      expect(controls.body).toContain("commandDenylist: + curl | sh");
      expect(controls.body).toContain("customModels[0].apiKey: added ***");

      // The offered command works: install-deps is retried.
      const retry = await runBin(["computers", "retry", "comp-build"], { env: ctx.home.env });
      ctx.outputs.push(retry);
      expect(retry.code).toBe(0);
      expect(retry.stdout).toContain("Retrying install-deps on build-box (comp-build)");
      expect(ctx.fake.retries).toBe(1);

      // Recovery, announced once.
      ctx.fake.apply([
        { op: "computer", id: "comp-build", status: "active" },
        { op: "step", computerId: "comp-build", name: "install-deps", status: "completed" },
      ]);
      for (let run = 0; run < 2; run++)
        expect((await ctx.watchOnce("--digest", "daily")).code).toBe(0);
      await settle(ctx, 5);
      expect(byEvent("ComputerRecovered").title).toContain("Computer build-box recovered");

      const watchLines = ctx.home.logLines().filter((line) => line.client === "watch");
      expect(watchLines.map((line) => line.event).sort()).toEqual([
        "ComputerError",
        "ComputerRecovered",
        "ControlsChanged",
        "DailyDigest",
        "SessionIdle",
      ]);
      const texts = Object.fromEntries(
        ctx.outputs.flatMap((r, i) => [
          [`stdout ${i}`, r.stdout],
          [`stderr ${i}`, r.stderr],
        ]),
      );
      const bodies = Object.fromEntries(ctx.hook.requests.map((r, i) => [`webhook ${i}`, r.body]));
      for (const secret of [ctx.key, modelKey]) {
        expect(leaksOf(secret, ctx.home.dir, { ...texts, ...bodies })).toEqual([]);
      }
    },
  );

  it(
    "a member's key: the digest fails with 403 (exit 1), the rest still works; doctor says why",
    { timeout: 60_000 },
    async () => {
      const ctx = await setup({ role: "member" });
      const result = await ctx.watchOnce("--digest", "daily");
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("SERVICE_FORBIDDEN");
      expect(ctx.fake.requests.some((r) => r.path === "/api/v0/computers")).toBe(true);
      const doctor = await runBin(["doctor", "--json"], { env: ctx.home.env });
      const checks = JSON.parse(doctor.stdout) as { check: string; status: string }[];
      expect(checks.find((c) => c.check === "service key")?.status).toBe("ok");
      expect(checks.find((c) => c.check === "service role")?.status).toBe("warn");
      for (const r of [result, doctor]) {
        expect(leaksOf(ctx.key, ctx.home.dir, { out: r.stdout, err: r.stderr })).toEqual([]);
      }
    },
  );

  it("backs off: a 429 with Retry-After is reported, and a wrong key fails with 401 and no key shown", async () => {
    const ctx = await setup();
    ctx.fake.fail({ path: "/api/v0/sessions", status: 429, retryAfter: 30 });
    const limited = await ctx.watchOnce();
    expect(limited.code).toBe(1);
    expect(limited.stderr).toContain("SERVICE_RATE_LIMITED");
    expect(limited.stderr).toContain("it asks to wait 30 s (Retry-After)");
    expect(limited.stderr).toContain("--once does not wait: run it again in 30 s");
    const wrong = makeCanary("WrongKey");
    const result = await runBin(["watch", "--once"], {
      env: { ...ctx.home.env, FACTORY_API_KEY: wrong },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("SERVICE_UNAUTHORIZED");
    expect(leaksOf(wrong, ctx.home.dir, { out: result.stdout, err: result.stderr })).toEqual([]);
  });

  it(
    "a follow-up turn is announced once; a session idle on an error is a failure with its last answer",
    { timeout: 60_000 },
    async () => {
      const ctx = await setup();
      expect((await ctx.watchOnce()).code).toBe(0);
      ctx.fake.apply([
        { op: "message", sessionId: "sess-idle", role: "user", text: "and the changelog?" },
        { op: "message", sessionId: "sess-idle", role: "assistant", text: "Changelog written." },
        {
          op: "message",
          sessionId: "sess-running",
          role: "assistant",
          text: "Model provider error: quota exceeded",
          isError: true,
        },
        { op: "session", sessionId: "sess-running", status: "idle" },
      ]);
      for (let run = 0; run < 2; run++) expect((await ctx.watchOnce()).code).toBe(0);
      await settle(ctx, 2);
      const byId = (id: string) =>
        ctx.delivered().find((d) => JSON.stringify(d).includes(id))!.data;
      const followUp = byId("sess-idle");
      expect(followUp.failure).toBe(false);
      expect(followUp.title).toBe("org-fake · Session done: Write the release notes");
      expect(followUp.body).toContain("Last: Changelog written.");
      expect(followUp.body).toMatch(/Tokens: .* credits/);
      const failed = byId("sess-running");
      expect(failed.failure).toBe(true);
      expect(failed.title).toContain("Session failed: Fix the flaky checkout test");
      expect(failed.body).toContain("Last: Model provider error: quota exceeded");
    },
  );

  it("refuses --interval below 10 s, and names an unset FACTORY_API_KEY in one line", async () => {
    const ctx = await setup();
    const fast = await runBin(["watch", "--interval", "2"], { env: ctx.home.env });
    expect(fast.code).toBe(1);
    expect(fast.stderr).toContain("--interval 2: give the seconds between polls, from 10 to 86400");
    const unset = await runBin(["watch", "--once"], {
      env: { ...ctx.home.env, FACTORY_API_KEY: undefined },
    });
    expect(unset.code).toBe(1);
    expect(unset.stderr).toMatch(
      /service\.apiKey: environment variable FACTORY_API_KEY is not set/,
    );
    expect(unset.stderr).not.toContain('no "service"');
    expect(ctx.fake.requests).toEqual([]);
  });

  it("sessions list --json and sessions send through the binary", async () => {
    const ctx = await setup();
    const listed = await runBin(["sessions", "list", "--json"], { env: ctx.home.env });
    expect(listed.code).toBe(0);
    const sessions = JSON.parse(listed.stdout) as { sessionId: string }[];
    expect(sessions.map((s) => s.sessionId)).toContain("sess-idle");
    const sent = await runBin(["sessions", "send", "sess-idle", "ship it"], { env: ctx.home.env });
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/^Sent msg-/);
    expect(JSON.parse(ctx.fake.requests.at(-1)!.body)).toEqual({ text: "ship it" });
    for (const r of [listed, sent])
      expect(leaksOf(ctx.key, ctx.home.dir, { out: r.stdout, err: r.stderr })).toEqual([]);
  });

  it(
    "announces yesterday's credits over service.alerts once a day",
    { timeout: 60_000 },
    async () => {
      const ctx = await setup({ alerts: { creditsPerDay: 1, creditsPerUserPerDay: 1 } });
      for (let run = 0; run < 2; run++) expect((await ctx.watchOnce()).code).toBe(0);
      await settle(ctx, 1);
      const alert = ctx.delivered()[0]!.data;
      const day = analyticsDay(yesterday());
      expect(alert.event).toBe("UsageAlert");
      expect(alert.title).toContain(`Credits over the limit on ${yesterday()}`);
      expect(alert.body).toContain("The organisation: ");
      expect(alert.body).toContain(`${day.tokens.by_user[0]!.user_email}: `);
    },
  );

  it("service.computers in the config narrows the sessions; --computer overrides it", async () => {
    const ctx = await setup({ service: { computers: ["comp-a", "comp-b"] } });
    expect((await ctx.watchOnce()).code).toBe(0);
    expect((await ctx.watchOnce("--computer", "comp-c")).code).toBe(0);
    const lists = ctx.fake.requests.filter((r) => r.path === "/api/v0/sessions");
    expect(lists.map((r) => r.query.computerId)).toEqual(["comp-a", "comp-b", "comp-c"]);
  });

  it("--host watches only the sessions on that host's computers", async () => {
    const ctx = await setup();
    const host = "7d9f0c1e-2b3a-4c5d-8e9f-0a1b2c3d4e5f";
    ctx.fake.apply({ op: "computer", id: "comp-mine", hostId: host, status: "active" });
    expect((await ctx.watchOnce("--host", host)).code).toBe(0);
    const lists = ctx.fake.requests.filter((r) => r.path === "/api/v0/sessions");
    expect(lists.map((r) => r.query.computerId)).toEqual(["comp-mine"]);
    const byHost = ctx.fake.requests.find((r) => r.query.hostId === host);
    expect(byHost?.query.includeProvisioningSteps).toBe("false");
  });
});
