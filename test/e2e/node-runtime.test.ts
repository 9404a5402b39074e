// What a new user gets on whatever Node runs this file (process.execPath: CI runs it on Node 20, 22,
// 24 and 26, issue 37): the built bin, with no worker alive, starts one through public APIs only,
// and the event reaches a real local webhook exactly once; an event left in outbox/events/ with no
// worker is never silent (log shows it waiting, doctor fails naming it, flush delivers it); a
// relative --config or HOOK_NOTIFY_CONFIG means the hook's folder, whichever folder the live worker
// started in. Real processes and a real HTTP server; nothing here measures time.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { startHttpServer, type TestHttpServer } from "../helpers/http-server.js";
import { ROOT, fixture, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";

// Several real hooks, workers and commands a test: generous for a loaded machine (CI runs this
// file beside CPU burners).
vi.setConfig({ testTimeout: 120_000 });

const outbox = (home: TempHome) => join(home.dir, "state", "hook-notify", "outbox");
const eventsDir = (home: TempHome) => join(outbox(home), "events");
const waitingFiles = (home: TempHome): string[] =>
  existsSync(eventsDir(home)) ? readdirSync(eventsDir(home)) : [];
// A worker's lock is gone once it has left: nothing it could still send is in flight.
const workerGone = (home: TempHome): boolean => !existsSync(join(outbox(home), "worker.lock"));
let sessions = 0;
const session = (name: string) => `runtime-${name}-${String(process.pid)}-${String(sessions++)}`;
const stop = (id: string) => fixture("claude-code/Stop.json", { session_id: id, cwd: "/tmp/p" });
const requestsFor = (server: TestHttpServer, id: string) =>
  server.requests.filter((request) => request.body.includes(id));

async function webhookHome(): Promise<{ home: TempHome; server: TestHttpServer }> {
  const server = await startHttpServer();
  const home = tempHome();
  home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/hook` } } });
  return { home, server };
}

describe(`the built bin on node ${process.version}`, () => {
  it("with no worker alive: each Stop reaches the webhook exactly once, exit 0, nothing on stdout, and log shows it", async () => {
    const { home, server } = await webhookHome();
    // The first hook has no stamp (it loads the config and starts a worker); the second comes
    // after that worker left and finds its stamp (the fast path, which starts the next one).
    for (const id of [session("first"), session("cold")]) {
      const run = await runBin(["--client", "claude-code", "--timeout", "10"], {
        input: stop(id),
        env: home.env,
      });
      expect(run).toMatchObject({ code: 0, signal: null, stdout: "" });
      await expect.poll(() => requestsFor(server, id).length, { timeout: 30_000 }).toBe(1);
      await expect.poll(() => workerGone(home), { timeout: 30_000 }).toBe(true);
      expect(requestsFor(server, id)).toHaveLength(1);
      const line = home.logLines().find((logged) => logged.session === id);
      expect(line).toMatchObject({ event: "Stop", via: "worker" });
    }
    expect(waitingFiles(home)).toEqual([]);
    const log = await runBin(["log"], { env: home.env, settle: false });
    expect(log.code).toBe(0);
    expect(log.stdout.match(/Stop/g)).toHaveLength(2);
    expect(log.stdout.match(/(?:✓|ok) hook/g)).toHaveLength(2);
    expect(log.stdout).not.toContain("waiting for a worker");
  });
});

// A copy of the package without its worker (dist/worker.cjs): no hook can start one.
function packageWithoutWorker(): string {
  const dir = mkdtempSync(join(tmpdir(), "hn-no-worker-"));
  onTestFinished(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  for (const part of ["bin", "dist", "package.json"])
    cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  for (const name of ["worker.cjs", "worker.js"]) rmSync(join(dir, "dist", name), { force: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return join(dir, "bin", "hook-notify.cjs");
}

describe("a hook that cannot start a worker", () => {
  // The hook runs the pipeline itself, as it did before workers ran events: desktop and sound
  // would start from it, a remote sink's delivery waits in the outbox for a flush (or a worker).
  it("runs the event itself: exit 0, nothing on stdout, the log says why, and flush sends it once", async () => {
    const { home, server } = await webhookHome();
    const bin = packageWithoutWorker();
    const id = session("no-worker");
    const run = await runBin(["--client", "claude-code", "--timeout", "10"], {
      input: stop(id),
      env: home.env,
      bin,
    });
    expect(run).toMatchObject({ code: 0, signal: null, stdout: "" });
    const line = home.logLines().find((logged) => logged.session === id);
    expect(line).toMatchObject({ event: "Stop", kept: "kept: no worker could be started" });
    expect(line?.via).toBeUndefined();
    expect(waitingFiles(home)).toEqual([]);
    const log = await runBin(["log"], { env: home.env, bin, settle: false });
    expect(log.stdout).toContain("run by the hook (no worker could be started)");
    const flush = await runBin(["flush"], { env: home.env, bin, settle: false });
    expect(flush.code).toBe(0);
    expect(requestsFor(server, id)).toHaveLength(1);
  });
});

// An event written by a hook whose worker never came (killed before it started, a node that could
// not spawn): planted here as a hook writes it, with no worker alive.
function plantEvent(home: TempHome, id: string, ageMs: number): string {
  const receivedAt = Date.now() - ageMs;
  const name = `${receivedAt.toString(36)}-4242-planted.json`;
  mkdirSync(eventsDir(home), { recursive: true });
  writeFileSync(
    join(eventsDir(home), name),
    `${JSON.stringify({
      version: 1,
      build: "planted",
      args: { client: "claude-code", timeout: 10 },
      payload: stop(id),
      receivedAt,
      cwd: home.dir,
      ppid: 1,
      env: Object.fromEntries(
        Object.entries(home.env).filter((pair): pair is [string, string] => pair[1] !== undefined),
      ),
    })}\n`,
  );
  return name;
}

describe("an event stranded in outbox/events/ with no worker", () => {
  it("log shows it waiting, and flush delivers it exactly once", async () => {
    const { home, server } = await webhookHome();
    const id = session("flush");
    plantEvent(home, id, 60_000);
    const log = await runBin(["log"], { env: home.env, settle: false });
    expect(log.stdout).toContain("waiting for a worker");
    expect(log.stdout).toContain("Stop");
    expect(log.stdout).toContain("hook-notify flush");
    const flush = await runBin(["flush"], { env: home.env, settle: false });
    expect(flush.stdout).toContain("Ran 1 hook event(s) that waited for a worker.");
    expect(flush.code).toBe(0);
    await expect.poll(() => workerGone(home), { timeout: 30_000 }).toBe(true);
    expect(requestsFor(server, id)).toHaveLength(1);
    expect(waitingFiles(home)).toEqual([]);
    expect((await runBin(["log"], { env: home.env, settle: false })).stdout).not.toContain(
      "waiting for a worker",
    );
  });

  it("doctor exits 1 saying how many and since when, and starts a worker that delivers it", async () => {
    const { home, server } = await webhookHome();
    const id = session("doctor");
    plantEvent(home, id, 60_000);
    const doctor = await runBin(["doctor", "--json"], { env: home.env, settle: false });
    expect(doctor.code).toBe(1);
    const checks = JSON.parse(doctor.stdout) as { check: string; status: string; detail: string }[];
    const events = checks.find((check) => check.check === "events");
    expect(events?.status).toBe("fail");
    expect(events?.detail).toMatch(
      /^1 hook event\(s\) waiting in .* since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/,
    );
    expect(events?.detail).toContain("doctor started a worker to take them");
    await expect.poll(() => requestsFor(server, id).length, { timeout: 30_000 }).toBe(1);
    await expect.poll(() => workerGone(home), { timeout: 30_000 }).toBe(true);
    expect(requestsFor(server, id)).toHaveLength(1);
    expect(waitingFiles(home)).toEqual([]);
  });

  it("the next hook's worker takes it with its own event", async () => {
    const { home, server } = await webhookHome();
    const stranded = session("stranded");
    const next = session("next");
    plantEvent(home, stranded, 60_000);
    const run = await runBin(["--client", "claude-code"], {
      input: stop(next),
      env: home.env,
      settle: false,
    });
    expect(run).toMatchObject({ code: 0, stdout: "" });
    await expect.poll(() => requestsFor(server, stranded).length, { timeout: 30_000 }).toBe(1);
    await expect.poll(() => requestsFor(server, next).length, { timeout: 30_000 }).toBe(1);
    await expect.poll(() => workerGone(home), { timeout: 30_000 }).toBe(true);
    expect(requestsFor(server, stranded)).toHaveLength(1);
    expect(requestsFor(server, next)).toHaveLength(1);
  });
});

describe("a relative config path", () => {
  // A live worker started in another folder (the home) with the built-in default; the hooks run
  // in a project folder that holds good.json, whose only sink is the webhook.
  async function scene() {
    const { home, server } = await webhookHome();
    const project = join(home.dir, "project");
    mkdirSync(project, { recursive: true });
    writeFileSync(
      join(project, "good.json"),
      JSON.stringify({ sinks: { good: { type: "webhook", url: `${server.url}/good` } } }),
    );
    const env = { ...home.env, HOOK_NOTIFY_WORKER_IDLE_SECONDS: "60" };
    const warm = await runBin(["--client", "claude-code"], {
      input: stop(session("warm")),
      env,
    });
    expect(warm.code).toBe(0);
    await expect.poll(() => workerGone(home), { timeout: 30_000 }).toBe(false);
    return { home, server, project, env };
  }

  it.each([
    [
      "-c good.json",
      (id: string) => ({ args: ["-c", "good.json"], env: {} as Record<string, string>, id }),
    ],
    [
      "HOOK_NOTIFY_CONFIG=good.json",
      (id: string) => ({ args: [], env: { HOOK_NOTIFY_CONFIG: "good.json" }, id }),
    ],
  ])("%s from another folder reaches good.json's sinks through the live worker", async (_, how) => {
    const { home, server, project, env } = await scene();
    const { args, env: extra, id } = how(session("relative"));
    const run = await runBin(["--client", "claude-code", ...args], {
      input: stop(id),
      env: { ...env, ...extra },
      cwd: project,
    });
    expect(run).toMatchObject({ code: 0, stdout: "" });
    await expect.poll(() => requestsFor(server, id).length, { timeout: 30_000 }).toBe(1);
    const line = home.logLines().find((logged) => logged.session === id);
    expect(line).toMatchObject({ via: "worker" });
    expect(JSON.stringify(line)).not.toContain("CONFIG_UNREADABLE");
    expect(requestsFor(server, id).map((request) => request.url)).toEqual(["/good"]);
  });
});
