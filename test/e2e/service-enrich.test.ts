// Enrichment end to end: the built hook enqueues a Droid Stop, the background worker asks the fake
// service for the session and the webhook gets the real title; a hanging or failing service only
// costs the bounded wait, and the notification goes out as it would have.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeCanary } from "../helpers/canary.js";
import { leaksOf, startFakeService, workerDone } from "../helpers/fake-service.js";
import { startHttpServer } from "../helpers/http-server.js";
import { fixture, ROOT, runBin, tempHome } from "../helpers/run-bin.js";

const SESSION_ID = "9f3c2a10-5b7e-4d21-9c8e-2f4a6b1d0e77"; // droid-documented/Stop.json
const TITLE = "Fix the flaky checkout test";
const ENRICH_TIMEOUT_S = 2;

async function setup() {
  const key = makeCanary("ServiceKey");
  const fake = await startFakeService({ apiKey: key });
  fake.apply({ op: "session", sessionId: SESSION_ID, status: "idle", title: TITLE });
  const hook = await startHttpServer();
  const home = tempHome({ FACTORY_API_KEY: key });
  home.writeConfig({
    sinks: { team: { type: "webhook", url: `${hook.url}/in` } },
    service: {
      baseUrl: fake.url,
      apiKey: "${FACTORY_API_KEY}",
      enrichTimeoutSeconds: ENRICH_TIMEOUT_S,
    },
  });
  return { key, fake, hook, home };
}

async function stopThroughHook(ctx: Awaited<ReturnType<typeof setup>>) {
  const result = await runBin(["--client", "droid", "--timeout", "10"], {
    input: fixture("droid-documented/Stop.json", { transcript_path: undefined }),
    env: ctx.home.env,
  });
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("");
  const [request] = await ctx.hook.waitForRequests(1, 20_000);
  const body = JSON.parse(request!.body) as {
    data: { title: string; body: string; session: { title?: string; tokenUsage?: unknown } };
  };
  return { result, request: request!, data: body.data };
}

function sessionRequestOf(ctx: Awaited<ReturnType<typeof setup>>) {
  return ctx.fake.requests.find((r) => r.path === `/api/v0/sessions/${SESSION_ID}`);
}

async function expectNoLeak(ctx: Awaited<ReturnType<typeof setup>>, texts: Record<string, string>) {
  await workerDone(ctx.home.dir);
  const bodies = Object.fromEntries(ctx.hook.requests.map((r, i) => [`webhook ${i}`, r.body]));
  expect(leaksOf(ctx.key, ctx.home.dir, { ...texts, ...bodies })).toEqual([]);
}

describe("enrichment of Droid notifications by the background worker", () => {
  it("puts the session's real title and token usage into a Droid Stop", async () => {
    const ctx = await setup();
    const { result, data } = await stopThroughHook(ctx);
    expect(data.session.title).toBe(TITLE);
    expect(data.body).toContain(`Session: ${TITLE}`);
    expect(data.body).toMatch(/Tokens: .* in, .* out/);
    expect(data.session.tokenUsage).toBeDefined();
    const asked = sessionRequestOf(ctx);
    expect(asked?.headers.authorization).toBe(`Bearer ${ctx.key}`);
    await expectNoLeak(ctx, { stdout: result.stdout, stderr: result.stderr });
  });

  it("with the service hanging, the notification goes out within the bound, without the title", async () => {
    const ctx = await setup();
    ctx.fake.fail({ path: "/api/v0/sessions", hang: true, times: Infinity });
    const { result, request, data } = await stopThroughHook(ctx);
    expect(data.session.title).toBeUndefined();
    expect(data.body).not.toContain(TITLE);
    // The worker asked, waited at most the bound, then sent: the design's guarantee (plus slack
    // for a loaded machine, far below the 15 s a sink attempt may take).
    const asked = sessionRequestOf(ctx);
    expect(asked).toBeDefined();
    // (The fake stamps the request once it has read it, a little after the worker's timer began.)
    expect(request.receivedAt - asked!.at).toBeGreaterThanOrEqual(ENRICH_TIMEOUT_S * 1000 - 500);
    expect(request.receivedAt - asked!.at).toBeLessThan(ENRICH_TIMEOUT_S * 1000 + 5000);
    expect(result.ms).toBeLessThan(10_000);
    await expectNoLeak(ctx, { stdout: result.stdout, stderr: result.stderr });
  });

  it("with the service answering 500, the notification goes out at once, as it would have", async () => {
    const ctx = await setup();
    ctx.fake.fail({ path: "/api/v0/sessions", status: 500, times: Infinity });
    const { data } = await stopThroughHook(ctx);
    expect(data.session.title).toBeUndefined();
    expect(data.title).toBe("shop-api · Droid finished");
    await expect
      .poll(() => ctx.home.logLines().find((l) => l.enrich === true))
      .toMatchObject({
        code: "SERVICE_HTTP_STATUS",
      });
    await expectNoLeak(ctx, {});
  });
});

describe("the hook path pays nothing for the service", () => {
  it("the built hook bundle holds no service client; the worker's does", () => {
    const built = (name: string) => readFileSync(join(ROOT, "dist", name), "utf8");
    for (const marker of ["/api/v0/sessions/", "enterprise-controls", "install-deps"]) {
      expect(built("cli.cjs")).not.toContain(marker);
    }
    expect(built("worker-main.cjs")).toContain("/api/v0/sessions/");
  });
});
