// Entry point of the detached worker (dist/worker.cjs). It lives as long as the outbox holds work
// it can do: it releases the coalesced groups whose window closed, drains what is due, and sleeps
// until the next retry or group is due, however far off (within the entries' maximum age). With
// nothing left (but entries that wait for a ${VAR} it lacks: a later hook's worker may have it)
// it lingers HOOK_NOTIFY_WORKER_IDLE_SECONDS (default 600), asleep on its socket and its FIFO, so
// that the session's next hooks hand it their whole event (fast-offer.ts, run-events.ts) or at
// least desktop and sound, instead of running the pipeline and starting programs (issue #19);
// then it exits. Never prints anything.
import { readdir, unlink } from "node:fs/promises";
import type { Server } from "node:net";
import { join } from "node:path";
import { createDeps } from "../deps.js";
import { hasHeld, releaseHeld } from "../outbox/held.js";
import { lockHolder, lockSocket, whileLocked } from "../outbox/lock.js";
import { outboxPaths } from "../outbox/paths.js";
import { readEntries, type EntryCache } from "../outbox/read-entries.js";
import { processOwner } from "../outbox/spawn.js";
import { ensureDirs, sweepTemp } from "../outbox/store.js";
import { RECHECK_MS, fastPathOn, workerIdleSeconds } from "../outbox/worker-rhythm.js";
import { listenForWake, sendWake, socketPathFor, type WakeMessage } from "../outbox/wake.js";
import { drain, isWaitingForEnv } from "./worker.js";
import { listEvents, recoverEvents } from "../outbox/inbox.js";
import { adoptOrphans } from "../outbox/adopt.js";
import { openOffer, type Offer } from "./fast-offer.js";
import { runEvents } from "./run-events.js";

// Hooks wake a sleeping worker through its socket (asking whether it lives is the wake-up call),
// so with a socket it sleeps until the next due time, looking again at least once a minute. With
// no socket (an outbox path too long for one) it looks for newly queued work twice a second.
const POLL_WITHOUT_SOCKET_MS = 500;

const deps = createDeps();
const paths = outboxPaths(deps);
const cache: EntryCache = new Map();
const stop = new AbortController();
const maxAgeHours = Number(process.env.HOOK_NOTIFY_OUTBOX_MAX_AGE_HOURS);
const maxAgeMs = maxAgeHours > 0 ? maxAgeHours * 3_600_000 : undefined;
const token = process.getBuiltinModule("node:crypto").randomBytes(8).toString("hex");
const socketPath = socketPathFor(paths, token, deps.platform);
const idleMs = workerIdleSeconds(deps.env) * 1000;
let wakeUp: (() => void) | undefined;
let woken = false;
let yielding = false;
// Asked to step aside for a `flush` (PROTOCOL.md, "pause"): release the lock, let the flush have
// it, then take it back. The worker keeps its environment (the ${VAR}s a flush's shell may lack)
// and so the retries it has scheduled.
let pausing = false;
let pausedFor: number | undefined;
// Set once the worker has begun leaving: no "ok" after this, its last look may be over.
let closing = false;
let lockLost = false;
// The offer to run hooks' events; withdrawn (before the last look) when the worker leaves.
let offer: Offer | undefined;
let knocked = false;

// A hook knocked on the FIFO: an event waits in events/, or the stamp is stale.
function onKnock(): void {
  knocked = true;
  woken = true;
  wakeUp?.();
}

// True ("ok"): the drain loop or main's last look comes after this message.
function onMessage(message: WakeMessage, pid?: number): boolean {
  if (message === "yield") yielding = true;
  if (message === "pause") {
    pausing = true;
    pausedFor = pid;
  }
  woken = true;
  wakeUp?.();
  return !yielding && !pausing && !closing && !stop.signal.aborted;
}

// Holds the lock while draining; false when another worker holds it.
async function drainWhileLocked(server: Server | undefined): Promise<boolean> {
  const owner = processOwner(deps, server ? socketPath : undefined);
  // A lock that is no longer ours (its folder was removed, a successor took it over) ends the
  // stay: nobody can reach this worker through it any more.
  const onLost = (): void => {
    lockLost = true;
    wakeUp?.();
  };
  const done = await whileLocked(
    paths.lock,
    owner,
    async () => {
      await sweepDeadSockets();
      adoptOrphans(paths, owner.isAlive);
      recoverEvents(paths, owner.isAlive);
      // Every worker offers (PROTOCOL.md): the stamp outlives it, so the next hooks hand over
      // on the fast path and start a worker when this one is gone.
      if (server && fastPathOn(deps.env, deps.platform) && !offer)
        offer = openOffer(deps, paths, token, onKnock);
      await drainLoop(server !== undefined);
    },
    onLost,
  );
  return done !== undefined;
}

async function drainLoop(hasSocket: boolean): Promise<void> {
  let idleSince = deps.now();
  for (let first = true; !stop.signal.aborted && !yielding && !pausing; first = false) {
    woken = false;
    if (!first) adoptOrphans(paths, processOwner(deps).isAlive);
    if (knocked) {
      knocked = false;
      offer?.refresh();
    }
    const ran = await runEvents(deps, paths, (run) => offer?.learn(run));
    const held = await releaseHeld(deps);
    const summary = await drain(deps, {
      concurrency: 4,
      signal: stop.signal,
      cache,
      retryWaiting: first,
      ...(maxAgeMs ? { maxAgeMs } : {}),
    });
    const active = summary.remaining - summary.waitingForEnv;
    if (ran > 0 || active > 0 || held.waiting > 0 || didWork(summary)) idleSince = deps.now();
    const idleUntil = idleSince + idleMs;
    // Lingering needs the socket: without one no hook can reach this worker.
    const stay = hasSocket && !lockLost && deps.now() < idleUntil;
    if (lockLost || (active === 0 && held.waiting === 0 && !stay)) return;
    const dueAt = Math.min(summary.nextDueAt ?? Infinity, held.nextDueAt ?? Infinity, idleUntil);
    await sleepUntilWork(dueAt, hasSocket ? RECHECK_MS : POLL_WITHOUT_SOCKET_MS);
  }
}

function didWork(summary: Awaited<ReturnType<typeof drain>>): boolean {
  const { delivered, failed, skipped, cancelled, retrying } = summary;
  return delivered + failed + skipped + cancelled + retrying > 0;
}

// Sockets of workers killed before they could close them: nobody answers on them any more.
async function sweepDeadSockets(): Promise<void> {
  const names = await readdir(paths.root).catch(() => [] as string[]);
  for (const name of names) {
    const file = join(paths.root, name);
    if (!/^worker\.[0-9a-f]+\.sock$/.test(name) || file === socketPath) continue;
    if (!(await sendWake(file, "wake"))) await unlink(file).catch(() => undefined);
  }
}

// After releasing, look again: a hook may have queued while seeing our lock (and not spawned), or
// handed over an event while the FIFO was open.
async function hasWork(): Promise<boolean> {
  if (listEvents(paths).length > 0) return true;
  if (await hasHeld(paths)) return true;
  const entries = await readEntries(paths, paths.pending, () => undefined, cache);
  return entries.some((entry) => !isWaitingForEnv(entry));
}

// Sleeps until `dueAt`, a wake-up through the socket, a signal, or a look that finds an entry due
// (each look costs a readdir and a stat per entry: parsed entries stay in the cache).
async function sleepUntilWork(dueAt: number, pollMs: number): Promise<void> {
  const heldBefore = await hasHeld(paths);
  while (!stop.signal.aborted && !woken) {
    await sleep(Math.max(1, Math.min(pollMs, dueAt - deps.now())));
    if (wasWoken() || lockLost || deps.now() >= dueAt) return;
    const entries = await readEntries(paths, paths.pending, () => undefined, cache);
    if (entries.some((entry) => entry.notBefore <= deps.now() && !isWaitingForEnv(entry))) return;
    if (!heldBefore && (await hasHeld(paths))) return;
  }
}

const FLUSH_TAKES_LOCK_MS = 35_000;
const FLUSH_RUNS_MS = 10 * 60_000;

// Paused for a flush: wait until that flush process is over (it holds the lock only while it
// lives), or, when it did not say who it is, until the lock was taken and released. False when
// the worker should leave instead (stopped, asked to yield).
async function stepAsideForFlush(): Promise<boolean> {
  const owner = processOwner(deps);
  const flush = pausedFor;
  pausedFor = undefined;
  if (flush !== undefined) {
    for (const until = deps.now() + FLUSH_RUNS_MS; deps.now() < until && owner.isAlive(flush);)
      await sleep(100);
  } else {
    const held = async () => (await lockHolder(paths.lock, owner)) !== undefined;
    for (const until = deps.now() + FLUSH_TAKES_LOCK_MS; deps.now() < until && !(await held());)
      await sleep(200);
    for (const until = deps.now() + FLUSH_RUNS_MS; deps.now() < until && (await held());)
      await sleep(500);
  }
  return !stop.signal.aborted && !yielding;
}

// A function, so the type checker does not take `woken` as still false after an await.
function wasWoken(): boolean {
  return woken;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      wakeUp = undefined;
      resolve();
    }
    wakeUp = done;
  });
}

// The socket closes before the last look at the outbox: a hook that reached it before then queued
// its entry before that look; a hook after then finds no live worker and starts one.
async function main(): Promise<void> {
  await ensureDirs(paths);
  await sweepTemp(paths, deps.now());
  while (!stop.signal.aborted && !yielding) {
    const server = socketPath ? await listenForWake(socketPath, onMessage) : undefined;
    let locked: boolean;
    try {
      locked = await drainWhileLocked(server);
    } finally {
      closing = true;
      offer?.close();
      offer = undefined;
      await new Promise((resolve) => {
        if (server) server.close(resolve);
        else resolve(undefined);
      });
    }
    if (!locked) {
      // Whoever holds the lock looks at the outbox again now: what the hook that started this
      // worker left (an orphan in tmp/, an event) is theirs (PROTOCOL.md, "one worker").
      const holder = await lockSocket(paths.lock);
      if (holder) await sendWake(holder, "wake");
      break;
    }
    if (pausing) {
      pausing = false;
      if (!(await stepAsideForFlush())) break;
    } else if (!(await hasWork())) break;
    closing = false;
  }
  // Asked to yield (flush): events handed over while the FIFO was still open are run all the same.
  if (yielding) await runEvents(deps, paths, () => undefined);
}

main().catch(() => {
  process.exitCode = 0;
});
