// The worker's due-time index (src/link/PROTOCOL.md, "The due-time index") with real processes:
// a backlog a worker read at its start, and an entry another process queued while it runs (a
// hook on the slow path, HOOK_NOTIFY_FAST=0), which the worker learns of by the hook's wake, not
// by reading the folder on each round. A real HTTP server; nothing here measures time.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { entryKey, newEntry } from "../../src/outbox/store.js";
import { startHttpServer } from "../helpers/http-server.js";
import { fixture, ROOT, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";
import { sampleNotification } from "../helpers/sample-notification.js";

const outbox = (home: TempHome) => join(home.dir, "state", "hook-notify", "outbox");
const lockPid = (home: TempHome): number | undefined => {
  try {
    return (JSON.parse(readFileSync(join(outbox(home), "worker.lock"), "utf8")) as { pid: number })
      .pid;
  } catch {
    return undefined;
  }
};

describe("the worker's due-time index, with real processes", () => {
  it("a worker with a backlog not due sends what a hook queued itself while it ran, once, woken by that hook", async () => {
    const server = await startHttpServer();
    onTestFinished(() => server.close());
    const home = tempHome({ HOOK_NOTIFY_WORKER_IDLE_SECONDS: "60" });
    const config = home.writeConfig({
      sinks: { hook: { type: "webhook", url: `${server.url}/in` } },
    });
    // A backlog for the same sink, due in an hour (a backed-off retry), as the store writes it.
    const pending = join(outbox(home), "pending");
    mkdirSync(pending, { recursive: true, mode: 0o700 });
    const now = Date.now();
    for (let i = 0; i < 50; i++) {
      const notification = sampleNotification({ id: `later-${String(i)}` });
      const entry = newEntry({ notification, sinkName: "hook", configPath: config }, now);
      expect(entry.key).toBe(entryKey(notification.id, "hook"));
      writeFileSync(
        join(pending, `${entry.key}.json`),
        JSON.stringify({ ...entry, notBefore: now + 3_600_000 }),
        { mode: 0o600 },
      );
    }
    const worker = spawn(process.execPath, [join(ROOT, "dist", "worker.cjs")], {
      env: home.env,
      stdio: "ignore",
    });
    onTestFinished(() => {
      worker.kill("SIGKILL");
    });
    await expect.poll(() => lockPid(home), { timeout: 20_000 }).toBe(worker.pid);
    // The hook runs the pipeline itself and queues its delivery into pending/.
    const session = `indexed-${String(now)}`;
    const run = await runBin(["--client", "claude-code"], {
      input: fixture("claude-code/Stop.json", { session_id: session }),
      env: { ...home.env, HOOK_NOTIFY_FAST: "0" },
    });
    expect(run).toMatchObject({ code: 0, stdout: "" });
    await server.waitForRequests(1, 20_000);
    // The same worker sent it (no other was started for it), and the backlog still waits.
    expect(lockPid(home)).toBe(worker.pid);
    await expect.poll(() => readdirSync(pending).length, { timeout: 20_000 }).toBe(50);
    expect(server.requests).toHaveLength(1);
  });
});
