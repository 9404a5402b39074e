// Entry point of the detached worker (dist/worker.cjs): release the coalesced groups whose window
// closed, drain until empty or only far-future entries remain, sleeping until the next notBefore
// within a window. Never prints anything.
import { createDeps } from "../deps.js";
import { hasHeld, releaseHeld } from "./held.js";
import { acquireLock } from "./lock.js";
import { outboxPaths } from "./paths.js";
import { readEntries } from "./read-entries.js";
import { processOwner } from "./spawn.js";
import { ensureDirs, sweepTemp } from "./store.js";
import { drain } from "./worker.js";

const SLEEP_WINDOW_MS = 2 * 60_000;
const MAX_LIFETIME_MS = 10 * 60_000;
const HEARTBEAT_MS = 10_000;
// While a group is held the worker looks again this often: a new group (or a part that extends
// one) may have arrived while it slept, and its hook saw the lock and started no worker.
const HELD_POLL_MS = 500;

const deps = createDeps();
const paths = outboxPaths(deps);
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
        ...(maxAgeMs ? { maxAgeMs } : {}),
      });
      const wait = (summary.nextDueAt ?? Infinity) - deps.now();
      if (held.waiting > 0) {
        await sleep(Math.max(50, Math.min(wait, (held.nextDueAt ?? 0) - deps.now(), HELD_POLL_MS)));
        continue;
      }
      if (summary.remaining === 0 || wait > SLEEP_WINDOW_MS) break;
      await sleepUnlessHeld(Math.max(wait, 50));
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

// Waits for a retry, but wakes as soon as a group is held (it may be due before the retry).
async function sleepUnlessHeld(ms: number): Promise<void> {
  const until = deps.now() + ms;
  while (!stop.signal.aborted && deps.now() < until) {
    await sleep(Math.min(HELD_POLL_MS, until - deps.now()));
    if (await hasHeld(paths)) return;
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
