// What is in the outbox is sent on schedule without another hook, a dead worker cannot pass for
// a live one, and a sink that cannot be resolved here waits (issue 13, items 2 and 3).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { entryKey, type OutboxEntry } from "../../src/outbox/store.js";
import { HOOK_ENV_KEYS } from "../../src/link/hook-env.js";
import { startHttpServer, type TestHttpServer } from "../helpers/http-server.js";
import { ROOT, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";
import { sampleNotification } from "../helpers/sample-notification.js";
import { isZombie } from "../helpers/zombie.js";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";

const WORKER = join(ROOT, "dist", "worker.cjs");
type Sent = { data: { session: { id: string } } };
const sessionsOf = (server: TestHttpServer): string[] =>
  server.requests.map((r) => (JSON.parse(r.body) as Sent).data.session.id);
const outboxOf = (home: TempHome) => join(home.dir, "state", "hook-notify", "outbox");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// An entry as the hook writes it, placed by hand.
function putEntry(home: TempHome, id: string): OutboxEntry {
  const pending = join(outboxOf(home), "pending");
  mkdirSync(pending, { recursive: true });
  const entry: OutboxEntry = {
    version: 1,
    key: entryKey(id, "hook"),
    sinkName: "hook",
    notification: sampleNotification({ id, sessionId: id }),
    createdAt: Date.now(),
    attempts: 0,
    notBefore: 0,
  };
  writeFileSync(join(pending, `${entry.key}.json`), JSON.stringify(entry));
  return entry;
}

describe("the outbox is sent on schedule without another hook", () => {
  it("a Retry-After of 125 s (past the old 2-minute sleep window) is honoured, then sent", async () => {
    const server = await startHttpServer([
      { status: 503, headers: { "retry-after": "125" } },
      { status: 200 },
    ]);
    const home = tempHome();
    home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/h` } } });
    const input = JSON.stringify({ hook_event_name: "Stop", session_id: "later" });
    await runBin([], { input, env: home.env });
    const [first] = await server.waitForRequests(1, 20_000);
    const [, second] = await server.waitForRequests(2, 180_000);
    expect(sessionsOf(server)).toEqual(["later", "later"]);
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(125_000);
  }, 200_000);

  it.runIf(process.platform === "linux")(
    "a worker killed with SIGKILL and left a zombie does not stop the next hook from starting one",
    async () => {
      const server = await startHttpServer([{ hang: true }, { status: 200 }]);
      const home = tempHome();
      home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/h` } } });
      putEntry(home, "first");
      // The worker, started by a parent that never reaps it (as a stuck client would).
      const parent = spawn("sh", ["-c", `"${process.execPath}" "${WORKER}" & exec sleep 120`], {
        env: home.env,
        stdio: "ignore",
      });
      onTestFinished(() => {
        parent.kill("SIGKILL");
      });
      await server.waitForRequests(1, 20_000); // the worker is mid-delivery, holding the lock
      const lock = JSON.parse(readFileSync(join(outboxOf(home), "worker.lock"), "utf8")) as {
        pid: number;
      };
      process.kill(lock.pid, "SIGKILL");
      for (let i = 0; i < 50 && !isZombie(lock.pid); i++) await sleep(100);
      expect(isZombie(lock.pid)).toBe(true); // kill(pid, 0) still succeeds on it
      const input = JSON.stringify({ hook_event_name: "Stop", session_id: "second" });
      await runBin([], { input, env: home.env });
      await server.waitForRequests(3, 20_000);
      expect(sessionsOf(server).slice(1).sort()).toEqual(["first", "second"]);
      await workerGone(home);
    },
    60_000,
  );
});

describe("a worker killed before it could be reached by its socket", () => {
  it.runIf(process.platform === "linux")(
    "killed while its first events run and left a zombie: the next hook's worker takes the lock at once and runs both events",
    async () => {
      const server = await startHttpServer();
      // The first banner is answered only after the run's 10 s budget: the first worker is inside
      // its first events' run (its lock taken, no socket named yet) until then. Later ones at once.
      const bus = await fakeNotificationBus({ delayMs: [60_000] });
      const home = tempHome({ ...bus.env, DISPLAY: ":7" });
      home.writeConfig({
        sinks: { desktop: { type: "desktop" }, hook: { type: "webhook", url: `${server.url}/h` } },
      });
      const events = join(outboxOf(home), "events");
      mkdirSync(events, { recursive: true });
      const payload = JSON.stringify({ hook_event_name: "Stop", session_id: "first" });
      // As a hook hands it over (link/inbox.ts): with the hook's variables the worker reads.
      const env = Object.fromEntries(
        HOOK_ENV_KEYS.flatMap((key) => {
          const value = home.env[key];
          return value === undefined ? [] : [[key, value]];
        }),
      );
      const id = "0b7e0f4c-5a1d-4e2b-9c3f-6d8a7b1e2f30"; // the hook's id for it
      const entry = {
        version: 1,
        build: "test",
        args: { client: "claude-code" },
        payload,
        id,
        env,
      };
      writeFileSync(
        join(events, `${Date.now().toString(36)}-1-first.json`),
        JSON.stringify({ ...entry, receivedAt: Date.now(), cwd: home.dir, ppid: 1 }),
      );
      // The worker, started by a parent that never reaps it (an agent run as a container's pid 1).
      const parent = spawn("sh", ["-c", `"${process.execPath}" "${WORKER}" & exec sleep 120`], {
        env: home.env,
        stdio: "ignore",
      });
      onTestFinished(() => {
        parent.kill("SIGKILL");
      });
      const lockFile = join(outboxOf(home), "worker.lock");
      // It took the event, claimed the repeat rules' marker, and waits for the banner's answer.
      const seen = join(home.dir, "state", "hook-notify", "seen");
      const claimed = () => existsSync(seen) && readdirSync(seen).length > 0;
      const taken = () => readdirSync(events).some((name) => name.endsWith(".taken"));
      for (let i = 0; i < 400 && !(taken() && claimed() && existsSync(lockFile)); i++)
        await sleep(25);
      expect(claimed()).toBe(true);
      const lock = JSON.parse(readFileSync(lockFile, "utf8")) as { pid: number; socket?: string };
      expect(lock.socket).toBeUndefined(); // the window: live by its pid alone
      process.kill(lock.pid, "SIGKILL");
      for (let i = 0; i < 50 && !isZombie(lock.pid); i++) await sleep(100);
      expect(isZombie(lock.pid)).toBe(true);
      const input = JSON.stringify({ hook_event_name: "Stop", session_id: "second" });
      await runBin([], { input, env: home.env });
      // Not after the lock's heartbeat went stale (60 s), nor never: its event and the dead
      // worker's taken one, each once.
      await server.waitForRequests(2, 40_000);
      await workerGone(home);
      expect(sessionsOf(server).sort()).toEqual(["first", "second"]);
      // The run again is the same notification: its id, not a repeat of itself.
      const runs = home.logLines().filter((line) => line.session === "first");
      expect(runs).toMatchObject([{ id, skipped: [] }]);
    },
    60_000,
  );
});

// The worker that delivered leaves once the outbox is empty; its lock goes with it.
async function workerGone(home: TempHome): Promise<void> {
  const lock = join(outboxOf(home), "worker.lock");
  for (let i = 0; i < 100 && existsSync(lock); i++) await sleep(100);
}

describe("a ${VAR} missing for a queued entry", () => {
  it("a flush from a shell without the variable leaves the scheduled retry with the worker that has it", async () => {
    const server = await startHttpServer([
      { status: 429, headers: { "retry-after": "4" }, body: "slow down" },
      { status: 200 },
    ]);
    const home = tempHome();
    home.writeConfig({ sinks: { hook: { type: "webhook", url: "${HN_STRAND_URL}/h" } } });
    const input = JSON.stringify({ hook_event_name: "Stop", session_id: "strand" });
    await runBin([], { input, env: { ...home.env, HN_STRAND_URL: server.url } });
    await server.waitForRequests(1, 20_000);
    // The person's shell lacks the variable: the flush cannot send, and must not strand it.
    const flushed = await runBin(["flush"], { env: home.env });
    expect(flushed.stdout).toContain("HN_STRAND_URL");
    expect(server.requests).toHaveLength(1);
    // No further hook: the worker that has the variable takes the lock back and sends it.
    const [first, second] = await server.waitForRequests(2, 40_000);
    expect(sessionsOf(server)).toEqual(["strand", "strand"]);
    // Not before the service said: the flush's try did not move the retry.
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(3_900);
    await expect
      .poll(() => readdirSync(join(outboxOf(home), "pending")), { timeout: 10_000 })
      .toEqual([]);
  }, 60_000);

  it("makes it wait (and says so), never drops it; a flush that has the variable sends it", async () => {
    const server = await startHttpServer();
    const home = tempHome();
    home.writeConfig({ sinks: { hook: { type: "webhook", url: "${HN_TEST_HOOK_URL}/h" } } });
    const pending = join(outboxOf(home), "pending");
    const entry = putEntry(home, "waits");
    const without = await runBin(["flush"], { env: home.env });
    expect(without.code).toBe(1);
    expect(without.stdout).toContain("HN_TEST_HOOK_URL");
    expect(readdirSync(pending)).toEqual([`${entry.key}.json`]);
    expect(readdirSync(join(outboxOf(home), "failed"))).toEqual([]);
    expect(home.logLines()).toMatchObject([{ outbox: "retry", code: "CONFIG_ENV_MISSING" }]);
    const withVar = await runBin(["flush"], {
      env: { ...home.env, HN_TEST_HOOK_URL: server.url },
    });
    expect(withVar.code).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(readdirSync(pending)).toEqual([]);
  });
});
