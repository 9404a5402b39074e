// Entry point of the detached worker (dist/worker.cjs): release the coalesced groups whose window
// closed, drain until empty or only far-future entries remain, sleeping until the next notBefore
// within a window. Never prints anything.
import { createDeps } from "../deps.js";
import { hasHeld, releaseHeld } from "./held.js";
import { acquireLock } from "./lock.js";
import { outboxPaths } from "./paths.js";
import { readEntries, type EntryCache } from "./read-entries.js";
import { processOwner } from "./spawn.js";
import { ensureDirs, sweepTemp } from "./store.js";
import { drain } from "./worker.js";

const SLEEP_WINDOW_MS = 2 * 60_000;
const MAX_LIFETIME_MS = 10 * 60_000;
const HEARTBEAT_MS = 10_000;
// While it sleeps the worker looks this often for work: an entry that fell due (a retry, or a new
// one whose hook saw the lock and started no worker) or a held group. Retries that fall due close
// together are tried together: hundreds of jittered retries wake it at most twice a second.
const POLL_MS = 500;

const deps = createDeps();
const paths = outboxPaths(deps);
const cache: EntryCache = new Map();
const stop = new AbortController();
const endAt = deps.now() + MAX_LIFETIME_MS;
const maxAgeHours = Number(process.env.HOOK_NOTIFY_OUTBOX_MAX_AGE_HOURS);
const maxAgeMs = maxAgeHours > 0 ? maxAgeHours * 3_600_000 : undefined;

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    stop.abort();
  });
}

// Holds the lock while draining; false when another worker holds it.
async function drainWhileLocked(): Promise<boolean> {
  const lock = await acquireLock(paths.lock, processOwner(deps));
  if (!lock) return false;
  const heartbeat = setInterval(() => void lock.refresh(), HEARTBEAT_MS);
  try {
    while (!stop.signal.aborted && deps.now() < endAt) {
      const held = await releaseHeld(deps);
      const summary = await drain(deps, {
        concurrency: 4,
        signal: stop.signal,
        deadlineMs: endAt - deps.now(),
        cache,
        ...(maxAgeMs ? { maxAgeMs } : {}),
      });
      if (summary.remaining === 0 && held.waiting === 0) break;
      const retryAt = summary.nextDueAt ?? Infinity;
      if (held.waiting === 0 && retryAt - deps.now() > SLEEP_WINDOW_MS) break;
      await sleepUntilWork(retryAt, held.nextDueAt ?? Infinity);
    }
  } finally {
    clearInterval(heartbeat);
    await lock.release();
  }
  return true;
}

// After releasing, look again: a hook may have enqueued while seeing our lock (and not spawned).
async function hasDueEntries(): Promise<boolean> {
  if (await hasHeld(paths)) return true;
  const entries = await readEntries(paths, paths.pending, () => undefined);
  return entries.some((entry) => entry.notBefore <= deps.now() + SLEEP_WINDOW_MS);
}

// Sleeps in POLL_MS steps until an entry is due (retryAt, or a new one) or a held group is due
// (heldAt, kept to the millisecond), or a new group is held. Each look costs a readdir and a
// stat per entry: the parsed entries stay in the cache.
async function sleepUntilWork(retryAt: number, heldAt: number): Promise<void> {
  const heldBefore = heldAt !== Infinity;
  while (!stop.signal.aborted && deps.now() < endAt) {
    await sleep(Math.max(1, Math.min(POLL_MS, heldAt - deps.now())));
    if (deps.now() >= Math.min(retryAt, heldAt)) return;
    const entries = await readEntries(paths, paths.pending, () => undefined, cache);
    if (entries.some((entry) => entry.notBefore <= deps.now())) return;
    if (!heldBefore && (await hasHeld(paths))) return;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, Math.min(ms, endAt - deps.now()));
    stop.signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function main(): Promise<void> {
  await ensureDirs(paths);
  await sweepTemp(paths, deps.now());
  for (let round = 0; round < 5 && !stop.signal.aborted && deps.now() < endAt; round++) {
    if (!(await drainWhileLocked())) return;
    if (!(await hasDueEntries())) return;
  }
}

main().catch(() => {
  process.exitCode = 0;
});
