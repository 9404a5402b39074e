// Entry point of the detached worker (dist/worker.cjs): drain until empty or only far-future
// entries remain, sleeping until the next notBefore within a window. Never prints anything.
import { createDeps } from "../deps.js";
import { acquireLock } from "./lock.js";
import { outboxPaths } from "./paths.js";
import { readEntries } from "./read-entries.js";
import { processOwner } from "./spawn.js";
import { ensureDirs, sweepTemp } from "./store.js";
import { drain } from "./worker.js";

const SLEEP_WINDOW_MS = 2 * 60_000;
const MAX_LIFETIME_MS = 10 * 60_000;
const HEARTBEAT_MS = 10_000;

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
      const summary = await drain(deps, {
        concurrency: 4,
        signal: stop.signal,
        deadlineMs: endAt - deps.now(),
        ...(maxAgeMs ? { maxAgeMs } : {}),
      });
      const wait = (summary.nextDueAt ?? Infinity) - deps.now();
      if (summary.remaining === 0 || wait > SLEEP_WINDOW_MS) break;
      await sleep(Math.max(wait, 50));
    }
  } finally {
    clearInterval(heartbeat);
    await lock.release();
  }
  return true;
}

// After releasing, look again: a hook may have enqueued while seeing our lock (and not spawned).
async function hasDueEntries(): Promise<boolean> {
  const entries = await readEntries(paths, paths.pending, () => undefined);
  return entries.some((entry) => entry.notBefore <= deps.now() + SLEEP_WINDOW_MS);
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
