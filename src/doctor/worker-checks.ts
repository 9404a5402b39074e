// The background worker: alive or not, and what a worker that waits for the session's next hook
// costs (issue #19): its memory, the CPU it used so far, how often it wakes, how long it stays.
// Linux reads /proc for the figures; elsewhere doctor says whether it answers.
import { readFileSync } from "node:fs";
import type { Deps } from "../deps.js";
import { outboxPaths } from "../outbox/paths.js";
import { processOwner } from "../link/spawn.js";
import { sendWake } from "../link/wake.js";
import { HEARTBEAT_MS, RECHECK_MS, workerIdleSeconds } from "../link/rhythm.js";
import { readBoundedSync } from "../read-bounded.js";
import { procStatFields } from "../process-alive.js";
import { readStamp, stampHolds } from "../link/stamp.js";
import { userConfigPath } from "../config/paths.js";
import { ok, warn, type CheckResult } from "../check-result.js";

/** Linux's USER_HZ: /proc reports CPU time in these ticks on every architecture node runs on. */
const TICKS_PER_SECOND = 100;

interface LockInfo {
  pid: number;
  socket?: string | undefined;
  startedAt?: number | undefined;
}

// One line about the worker; never moves, wakes for work or stops anything but a socket probe.
export async function checkWorker(
  deps: Pick<Deps, "env" | "homedir" | "platform" | "now">,
): Promise<CheckResult> {
  const stay = `stays ${String(workerIdleSeconds(deps.env))} s after its last work (HOOK_NOTIFY_WORKER_IDLE_SECONDS)`;
  const lock = readLock(outboxPaths(deps).lock);
  if (!lock) {
    return ok(
      "worker",
      `none running; a hook starts one when it queues work, and it ${stay} so that later hooks hand it desktop and sound`,
    );
  }
  const answers = lock.socket
    ? await sendWake(lock.socket, "wake")
    : processOwner(deps).isAlive(lock.pid);
  if (!answers) {
    return warn(
      "worker",
      `the lock names pid ${String(lock.pid)}, which does not answer (killed?)`,
      "nothing to do: the next hook starts a new worker",
    );
  }
  const age = lock.startedAt === undefined ? "" : ` for ${minutes(deps.now() - lock.startedAt)}`;
  const usage = deps.platform === "linux" ? procUsage(lock.pid) : undefined;
  const cost = usage
    ? `; RSS ${(usage.rssKiB / 1024).toFixed(1)} MiB, CPU ${usage.cpuSeconds.toFixed(2)} s so far`
    : "";
  const rhythm = `asleep between hooks, it wakes every ${String(HEARTBEAT_MS / 1000)} s (lock heartbeat) and looks at the outbox at least every ${String(RECHECK_MS / 1000)} s`;
  return ok(
    "worker",
    `alive (pid ${String(lock.pid)})${age}${cost}; ${rhythm}; it ${stay}; ${offerLine(deps, lock.pid)}`,
  );
}

// Whether hooks hand this worker their whole event (the fast path, link/offer.ts) and, if
// not, why: a hook then runs the pipeline itself.
function offerLine(deps: Pick<Deps, "env" | "homedir" | "platform">, pid: number): string {
  if (deps.platform === "win32")
    return "hooks load the config, then hand it their event (no fast path on Windows)";
  const stamp = readStamp(outboxPaths(deps).stamp);
  if (stamp?.pid !== pid)
    return "it offers no fast path (HOOK_NOTIFY_FAST=0, no mkfifo, or the config has an error: run a hook, then doctor again)";
  const held = stampHolds(stamp, {
    build: stamp.build,
    configPath: userConfigPath(deps),
    env: deps.env,
  });
  return held
    ? "hooks hand it their whole event (fast path: outbox/fast.json)"
    : "its fast-path offer is for another config or other ${VAR} values than this shell's: hooks here load the config first, and run the pipeline themselves while it has other ${VAR} values";
}

function readLock(path: string): LockInfo | undefined {
  try {
    const raw = JSON.parse(readBoundedSync(path, { maxBytes: 4096, noFollow: true })) as Record<
      string,
      unknown
    >;
    if (typeof raw.pid !== "number") return undefined;
    const socket = typeof raw.socket === "string" ? raw.socket : undefined;
    const startedAt = typeof raw.startedAt === "number" ? raw.startedAt : undefined;
    return { pid: raw.pid, socket, startedAt };
  } catch {
    return undefined;
  }
}

// Resident memory and user + system CPU time of a process, from /proc.
export function procUsage(pid: number): { rssKiB: number; cpuSeconds: number } | undefined {
  try {
    const status = readFileSync(`/proc/${String(pid)}/status`, "utf8");
    const fields = procStatFields(pid);
    if (!fields) return undefined;
    const ticks = Number(fields[11]) + Number(fields[12]);
    const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    if (!Number.isFinite(ticks) || !Number.isFinite(rssKiB)) return undefined;
    return { rssKiB, cpuSeconds: ticks / TICKS_PER_SECOND };
  } catch {
    return undefined;
  }
}

function minutes(ms: number): string {
  const m = Math.max(0, Math.round(ms / 60_000));
  return m < 1 ? "less than a minute" : `${String(m)} min`;
}
