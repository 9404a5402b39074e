// Starts the background worker from the hook: detached, stdio ignored, unref'd; a few ms, no throw.
import type { Deps } from "../deps.js";
import { lockHolder, type LockOwner } from "./lock.js";
import { outboxPaths } from "../outbox/paths.js";
import { sendWake } from "./wake.js";
import { findWorkerFile, startDetached } from "./start-detached.js";
import { processAlive } from "../process-alive.js";

/** started: a worker was spawned; running: a live one already drains; unavailable: no worker file. */
export type StartResult = "started" | "running" | "unavailable";

// Spawns `node dist/worker.cjs` unless a live worker holds the lock; asking that worker is what
// wakes it to send what was just queued (it also re-checks the outbox before it exits).
export async function startWorker(
  deps: Deps,
  options: { workerFile?: string } = {},
): Promise<StartResult> {
  try {
    if ((await lockHolder(outboxPaths(deps).lock, processOwner(deps))) !== undefined)
      return "running";
    const file = options.workerFile ?? findWorkerFile();
    if (!file) return "unavailable";
    return startDetached(deps.env, deps.cwd, file) ? "started" : "unavailable";
  } catch {
    return "unavailable";
  }
}

// Liveness by the lock's wake socket (see wake.ts), else by signal 0 (EPERM means alive, owned by
// someone else). Used by the worker too, with the socket it listens on.
export function processOwner(deps: Pick<Deps, "now">, socket?: string): LockOwner {
  return {
    pid: process.pid,
    now: deps.now,
    socket,
    probe: (path) => sendWake(path, "wake"),
    isAlive: processAlive,
  };
}
