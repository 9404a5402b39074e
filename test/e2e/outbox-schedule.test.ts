// What is in the outbox is sent on schedule without another hook, a dead worker cannot pass for
// a live one, and a sink that cannot be resolved here waits (issue 13, items 2 and 3).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { entryKey, type OutboxEntry } from "../../src/outbox/store.js";
import { startHttpServer, type TestHttpServer } from "../helpers/http-server.js";
import { ROOT, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";
import { sampleNotification } from "../helpers/sample-notification.js";

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

// The worker that delivered leaves once the outbox is empty; its lock goes with it.
async function workerGone(home: TempHome): Promise<void> {
  const lock = join(outboxOf(home), "worker.lock");
  for (let i = 0; i < 100 && existsSync(lock); i++) await sleep(100);
}

function isZombie(pid: number): boolean {
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
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
