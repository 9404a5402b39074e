// Subagent coalescing on the built binary: SubagentStop hooks of one session return at once, and
// the background worker sends one notification per sink that names every subagent, desktop too.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";
import { startHttpServer, type TestHttpServer } from "../helpers/http-server.js";
import { fixture, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";
import { workerDone } from "../helpers/wait-until.js";

const AGENTS = [
  "Explore",
  "Plan",
  "general-purpose",
  "code-reviewer",
  "test-runner",
  "doc-writer",
  "security-audit",
  "perf-probe",
  "migrator",
  "linter",
];

function subagentStop(i: number, patch: Record<string, unknown> = {}): string {
  return fixture("claude-code/SubagentStop.json", {
    agent_id: `agent-${String(i)}`,
    agent_type: AGENTS[i % AGENTS.length],
    last_assistant_message: `Part ${String(i)} is done.`,
    ...patch,
  });
}

// A webhook at a local receiver and a desktop sink on an in-process D-Bus that records each Notify.
async function setup(extra: Record<string, unknown> = {}, ops: Record<string, unknown> = {}) {
  const server = await startHttpServer([{ status: 200 }]);
  const bus = await fakeNotificationBus();
  const home = tempHome(bus.env);
  home.writeConfig({
    sinks: {
      desktop: { type: "desktop" },
      ops: { type: "webhook", url: `${server.url}/agent`, ...ops },
    },
    ...extra,
  });
  return { server, bus, home };
}

// Starts one hook per input, `gapMs` apart, the way a fan-out of subagents ends.
// Each result says when the process ended (`endedAt`, ms since the epoch).
async function hooksSpaced(home: TempHome, inputs: string[], gapMs: number, args: string[] = []) {
  const runs = [];
  for (const input of inputs) {
    runs.push(
      runBin(["--timeout", "10", ...args], { input, env: home.env }).then((result) => ({
        ...result,
        endedAt: Date.now(),
      })),
    );
    await new Promise((r) => setTimeout(r, gapMs));
  }
  return Promise.all(runs);
}

type Body = {
  data: {
    notificationId: string;
    title: string;
    body: string;
    coalesced?: { id: string; agentType?: string }[];
  };
};
const bodies = (server: TestHttpServer) => server.requests.map((r) => JSON.parse(r.body) as Body);

describe("subagent coalescing, end to end", () => {
  it("10 SubagentStop events in one second: one notification per sink that names them all", async () => {
    // Events less than the window apart are merged. The hooks start 100 ms apart, but a busy
    // machine can delay a process start by seconds: a 10 s window keeps "apart" out of reach.
    const { server, bus, home } = await setup({ coalesceSeconds: 10 });
    const results = await hooksSpaced(
      home,
      AGENTS.map((_, i) => subagentStop(i)),
      100,
    );
    for (const result of results) expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });

    const [first] = await server.waitForRequests(1, 60_000);
    await workerDone(home);
    await new Promise((r) => setTimeout(r, 500)); // a second notification would arrive now
    expect(server.requests).toHaveLength(1);
    const [{ data } = { data: undefined }] = bodies(server);
    expect(data?.title).toBe("shop-api · 10 subagents finished");
    // Every hook had returned before the merged notification went out: none waited for the
    // window (a wall-clock bound would measure the machine, not the design).
    const receivedAt = first?.receivedAt ?? 0;
    expect(results.filter((r) => r.endedAt > receivedAt)).toEqual([]);
    // The parts are listed in the order they arrived, which on a busy machine need not be the
    // order the hooks were started in: the first line follows the parts, and names every agent.
    const arrived = data?.coalesced?.map((p) => p.agentType) ?? [];
    expect(data?.body.split("\n")[0]).toBe(arrived.join(", "));
    expect([...arrived].sort()).toEqual([...AGENTS].sort());
    const runIds = home
      .logLines()
      .filter((l) => l.event === "SubagentStop")
      .map((l) => l.id as string);
    expect(runIds).toHaveLength(10);
    expect(data?.coalesced?.map((p) => p.id).sort()).toEqual([...runIds].sort());

    const shown = bus.calls();
    expect(shown).toHaveLength(1);
    expect(shown[0]?.summary).toBe("shop-api · 10 subagents finished");

    // Every run says it was held; one journal line per sink says what it was merged into.
    const runs = home.logLines().filter((l) => l.event === "SubagentStop");
    for (const run of runs)
      expect(run.outcomes).toEqual([
        expect.objectContaining({ sink: "desktop", ok: true, held: true }),
        expect.objectContaining({ sink: "ops", ok: true, held: true }),
      ]);
    const merges = home.logLines().filter((l) => l.outbox === "coalesced");
    expect(merges.map((m) => [m.sink, (m.parts as string[]).length]).sort()).toEqual([
      ["desktop", 10],
      ["ops", 10],
    ]);
    const outbox = join(home.dir, "state", "hook-notify", "outbox");
    expect(readdirSync(join(outbox, "held"))).toEqual([]);
    expect(readdirSync(join(outbox, "pending"))).toEqual([]);

    const log = await runBin(["log", "--tail", "1"], { env: { ...home.env, NO_COLOR: "1" } });
    // The banner's id comes in the daemon's reply: the log shows it (and the receipt "shown").
    expect(log.stdout).toMatch(
      /ok desktop \(1 of 10 merged\) \(id 1, shown #1\), ok ops \(1 of 10 merged\)/,
    );
  }, 120_000);

  it("a lone SubagentStop arrives as itself (its own id and words) once its window closed", async () => {
    const { server, home } = await setup({ coalesceSeconds: 1 });
    const [result] = await hooksSpaced(home, [subagentStop(2)], 0);
    expect(result?.code).toBe(0);
    await server.waitForRequests(1, 20_000);
    await workerDone(home);
    const [{ data } = { data: undefined }] = bodies(server);
    expect(data?.title).toBe("shop-api · Subagent finished (general-purpose)");
    expect(data?.coalesced).toBeUndefined();
    expect(data?.notificationId).toBe(home.logLines()[0]?.id);
  }, 30_000);

  it("keeps sessions apart, and a sink with coalesceSeconds: 0 gets each one at once", async () => {
    // Hooks 50 ms apart, a 10 s window: they stay within it even when a busy machine delays
    // process starts by seconds.
    const { server, bus, home } = await setup({ coalesceSeconds: 10 }, { coalesceSeconds: 0 });
    const inputs = [0, 1, 2].flatMap((i) => [
      subagentStop(i, { session_id: "session-a" }),
      subagentStop(i + 3, { session_id: "session-b" }),
    ]);
    await hooksSpaced(home, inputs, 50);
    await server.waitForRequests(6, 20_000);
    await workerDone(home);
    expect(new Set(bodies(server).map((b) => b.data.notificationId)).size).toBe(6);
    expect(bodies(server).every((b) => b.data.coalesced === undefined)).toBe(true);
    const titles = bus.calls().map((c) => c.summary);
    expect(titles).toEqual(["shop-api · 3 subagents finished", "shop-api · 3 subagents finished"]);
  }, 90_000);

  it("--dry-run shows the decision and holds nothing; --wait delivers at once", async () => {
    const { server, home } = await setup();
    const dry = await runBin(["--dry-run"], { input: subagentStop(1), env: home.env });
    const lines = dry.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { sink: string; coalesce?: string });
    expect(lines.map((l) => l.sink)).toEqual(["desktop", "ops"]);
    for (const line of lines) expect(line.coalesce).toMatch(/^held 3 s for the session's next/);
    expect(existsSync(join(home.dir, "state", "hook-notify", "outbox", "held"))).toBe(false);

    const wait = await runBin(["--wait", "--timeout", "10"], {
      input: subagentStop(2),
      env: home.env,
    });
    expect(wait.stdout).toMatch(/^✓ ops \(webhook → .*\) ok \d+ ms$/m);
    expect(server.requests).toHaveLength(1);
  }, 30_000);

  it("flush sends what is held at once, merged", async () => {
    const { server, home } = await setup({ coalesceSeconds: 30 });
    await hooksSpaced(home, [subagentStop(0), subagentStop(1)], 0);
    const flushed = await runBin(["flush"], { env: home.env });
    expect(flushed.stdout).toContain("Merged 2 group(s) of held SubagentStop events.");
    expect(server.requests.length).toBeGreaterThanOrEqual(1);
    expect(bodies(server)[0]?.data.title).toBe("shop-api · 2 subagents finished");
    await workerDone(home);
  }, 30_000);
});

describe("a container without a display", () => {
  it("skips desktop and sound with the container rule; the webhook carries on", async () => {
    const server = await startHttpServer([{ status: 200 }]);
    const home = tempHome({ container: "docker", HOOK_NOTIFY_LOCAL_SINKS: "0" });
    home.writeConfig({
      // De-duplication holds within its window: one the test cannot outlast on a busy machine.
      dedupeSeconds: 3600,
      sinks: {
        desktop: { type: "desktop" },
        sound: { type: "sound" },
        ops: { type: "webhook", url: `${server.url}/agent` },
      },
    });
    const input = fixture("claude-code/Stop.json");
    const dry = await runBin(["--dry-run"], { input, env: home.env });
    const lines = dry.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { sink: string; suppressed?: string });
    expect(lines.map((l) => [l.sink, l.suppressed?.split(":")[0]])).toEqual([
      ["desktop", "container"],
      ["sound", "container"],
      ["ops", undefined],
    ]);
    expect(lines[0]?.suppressed).toContain("a container without a display (container=docker;");

    const run = await runBin(["--timeout", "10"], { input, env: home.env });
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    await server.waitForRequests(1, 20_000);
    const skipped = home.logLines()[0]?.skipped as { sink: string; rule: string }[];
    expect(skipped.map((s) => [s.sink, s.rule])).toEqual([
      ["desktop", "container"],
      ["sound", "container"],
    ]);
    await workerDone(home);

    // A session bus passed into the container is a way out: desktop is tried again.
    const withBus = await runBin(["--dry-run"], {
      input,
      env: { ...home.env, DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/1000/bus" },
    });
    expect(withBus.stdout).not.toContain('"suppressed":"container');
    expect(withBus.stdout).toContain('"suppressed":"dedupe'); // the run above claimed the Stop
  }, 30_000);
});
