// The detached worker (dist/worker.cjs, process-entry.ts): wiring only. Its life, the order of its
// steps and its states are worker/life.ts; the protocol it keeps with hooks and flush is
// src/link/PROTOCOL.md. It lives as long as the outbox holds work it can do (however far off
// the next retry or group is, within the entries' maximum age), then lingers
// HOOK_NOTIFY_WORKER_IDLE_SECONDS (default 600) for the session's next hooks, then exits.
// Never prints anything.
import { processAlive } from "../process-alive.js";
import { createDeps } from "../deps.js";
import { adoptOrphans } from "../link/adopt.js";
import { hasHeld, releaseHeld } from "../delivery/coalesce-groups.js";
import { hasDigest, releaseDigests } from "../delivery/digest.js";
import { listEvents, recoverEvents } from "../link/inbox.js";
import { lockSocket, uniqueToken, whileLocked, type HeldLock } from "../link/lock.js";
import { outboxPaths } from "../outbox/paths.js";
import { processOwner } from "../link/spawn.js";
import { ensureDirs, sweepTemp } from "../outbox/store.js";
import { listenForWake, sendWake, socketPathFor } from "../link/wake.js";
import { RECHECK_MS, fastPathOn, workerIdleSeconds } from "../link/rhythm.js";
import { pruneAnswers } from "../escalation/answers.js";
import { startAhead } from "../pipeline/run-facts.js";
import { sweepCodeCacheTemp } from "./code-cache-sweep.js";
import { sweepDeadDoors } from "./door-sweep.js";
import { DEFAULT_RETRY_POLICY } from "../http/retry-policy.js";
import type { Enrich } from "../delivery/deliver-entry.js";
import { drain, type DrainSummary } from "./drain.js";
import { createPendingIndex } from "./pending-index.js";
import { openOffer, type Offer } from "../link/offer.js";
import { removeClaim, startClaimFile } from "../link/start-claim.js";
import { createWorkerLife, type WorkerPorts } from "./life.js";
import { runEvents } from "./run-events.js";
import { exitWhenDone } from "../exit.js";

// Hooks wake a sleeping worker through its socket, so with a socket it sleeps until the next due
// time, looking again at least once a minute. With no socket (an outbox path too long for one)
// it looks for newly queued work twice a second.
const POLL_WITHOUT_SOCKET_MS = 500;
// At the latest this long after a knock the worker starts on the event: the knocking hook exits
// first (within a few ms), so on two cores the agent does not wait beside the worker's work.
const KNOCK_SETTLE_MS = 25;
/** The day's pruning waits this long: a cold worker's first banner goes first. */
const PRUNE_AFTER_MS = 2_000;
/** How long a paused worker waits for a flush to end. */
const FLUSH_RUNS_MS = 10 * 60_000;

const deps = createDeps();
// Only the worker follows its banners (click, close), the outbox's too (deliver-entry.ts).
deps.worker = true;
const paths = outboxPaths(deps);
// pending/ by due time; others' writes read at a wake or a look (PROTOCOL.md, "The due-time index").
const index = createPendingIndex(paths);
/** Targets found down, until their probe's next try (worker/drain.ts dueAt). */
const downUntil = new Map<string, number>();
const stop = new AbortController();
const maxAgeHours = Number(deps.env.HOOK_NOTIFY_OUTBOX_MAX_AGE_HOURS);
const maxAgeMs = maxAgeHours > 0 ? maxAgeHours * 3_600_000 : undefined;
const token = uniqueToken();
const socketPath = socketPathFor(paths, token, deps.platform);
let listening = false;
/** The lock while this worker holds it: the socket is named in it once listening. */
let held: HeldLock | undefined;
// Settled once the first round's events ran (their banners shown): the door waits for it.
let eventsRan: () => void = () => undefined;
const firstEventsRan = new Promise<void>((resolve) => {
  eventsRan = resolve;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const owner = () => processOwner(deps, listening ? socketPath : undefined);

const ports: WorkerPorts = {
  now: deps.now,
  timer(ms, done) {
    const timer = setTimeout(done, ms);
    return () => {
      clearTimeout(timer);
    };
  },
  // Once the first round's events ran (a cold worker's banner goes first), beside the rest of it.
  async listen(onMessage) {
    if (!socketPath) return undefined;
    await firstEventsRan;
    // A wake may come from a process that queued entries itself (a hook on the slow path).
    const server = await listenForWake(socketPath, (message, pid) => {
      index.markNew();
      return onMessage(message, pid);
    });
    if (!server) return undefined;
    listening = true;
    // Named in the lock (how hooks and flush reach it); what was queued meanwhile is looked at.
    await held?.nameSocket(socketPath);
    index.markNew();
    return {
      close: () =>
        new Promise<void>((resolve) => {
          listening = false;
          server.close(() => {
            resolve();
          });
        }),
    };
  },
  async withLock(body, onLost) {
    const work = (lock: HeldLock) => {
      held = lock;
      return body();
    };
    const ran = await whileLocked(paths.lock, owner(), work, onLost);
    held = undefined;
    return ran !== undefined;
  },
  async wakeHolder() {
    const holder = await lockSocket(paths.lock);
    if (holder) await sendWake(holder, "wake");
  },
  // With the lock (at start, after a flush's pause, after a last look found work): the index is
  // built again from the folder; files it knows and that did not change are not read again.
  prepare() {
    index.markAll();
    adoptOrphans(paths, owner().isAlive);
    recoverEvents(paths, owner().isAlive);
    return Promise.resolve();
  },
  // Every worker offers where FIFOs exist (PROTOCOL.md): the stamp outlives it. The door is made
  // once the first round's events ran: a cold worker's banner goes first.
  openDoor(onKnock) {
    return socketPath && fastPathOn(deps.env, deps.platform)
      ? openOffer(deps, paths, token, onKnock, firstEventsRan)
      : undefined;
  },
  exited(pid) {
    return !processAlive(pid);
  },
  async round(first, door) {
    if (!first && adoptOrphans(paths, owner().isAlive) > 0) index.markNew();
    const offer = door as Offer | undefined;
    // The drain below sends what these events queue: no wake to this worker's own socket.
    const ran = await runEvents(deps, paths, (run) => offer?.learn(run.config), {
      queuedFor: "this-round",
    }).finally(eventsRan);
    const held = await releaseHeld(deps);
    const digests = await releaseDigests(deps);
    const summary = await drain(deps, {
      concurrency: 4,
      enrich,
      downUntil,
      signal: stop.signal,
      index,
      retryWaiting: first,
      ...(maxAgeMs ? { maxAgeMs } : {}),
    });
    const active = summary.remaining - summary.waitingForEnv;
    return {
      worked: ran > 0 || didWork(summary) || digests.released > 0,
      // A digest held while you are away keeps the worker: it asks the probes until you are back.
      waiting: active > 0 || held.waiting > 0 || digests.waiting > 0,
      nextDueAt: Math.min(
        summary.nextDueAt ?? Infinity,
        held.nextDueAt ?? Infinity,
        digests.nextDueAt ?? Infinity,
      ),
    };
  },
  async lookout() {
    const heldBefore = await hasHeld(paths);
    return async () => {
      // One stat of the folder; a listing only when it changed (a writer that did not wake us).
      await index.refreshIfChanged(() => undefined);
      if ((index.nextDueAt(downUntil) ?? Infinity) <= deps.now()) return true;
      return !heldBefore && (await hasHeld(paths));
    };
  },
  // After releasing, look again: a hook may have queued while seeing our lock (and not spawned),
  // or handed over an event while the door was open.
  async hasWork() {
    if (listEvents(paths).length > 0) return true;
    if ((await hasHeld(paths)) || (await hasDigest(paths))) return true;
    index.markNew();
    await index.refresh(() => undefined);
    const { remaining, waitingForEnv } = index.counts();
    return remaining > waitingForEnv;
  },
  // A flush says who it is ("pause <pid>"): it holds the lock only while it lives.
  async waitForFlush(pid) {
    if (pid === undefined) return;
    const isAlive = owner().isAlive;
    for (const until = deps.now() + FLUSH_RUNS_MS; deps.now() < until && isAlive(pid);)
      await sleep(100);
  },
  async runLeftEvents() {
    await runEvents(deps, paths, () => undefined);
  },
};

// A Droid notification gets its session's title first (the service code loads only then).
const enrich: Enrich = async (...args) =>
  (await import("./enrich-entry.js")).enrichForDelivery(...args);

function didWork(summary: DrainSummary): boolean {
  const { delivered, failed, skipped, cancelled, held, retrying } = summary;
  return delivered + failed + skipped + cancelled + held + retrying > 0;
}

async function main(): Promise<void> {
  // First, before the lock and any look: hooks that saw the start claim rely on that look.
  removeClaim(startClaimFile(paths));
  // Beside this worker's own start: Do Not Disturb read, the desktop's D-Bus connection opened.
  void startAhead(deps);
  ensureDirs(paths);
  sweepTemp(paths, deps.now());
  // After the first round: answered/ pruned daily, cache temp files and dead workers' doors.
  setTimeout(() => {
    // Only with the lock: one that lost it could take the holder's newborn FIFO for a dead one.
    if (life.state() === "draining" || life.state() === "lingering")
      void sweepDeadDoors(paths.root, token).catch(() => undefined);
    void pruneAnswers(deps, deps.now(), maxAgeMs ?? DEFAULT_RETRY_POLICY.maxAgeMs).catch(
      () => undefined,
    );
    void sweepCodeCacheTemp(deps, deps.now()).catch(() => undefined);
  }, PRUNE_AFTER_MS).unref();
  const life = createWorkerLife(ports, {
    idleMs: workerIdleSeconds(deps.env) * 1000,
    recheckMs: RECHECK_MS,
    pollMs: POLL_WITHOUT_SOCKET_MS,
    knockSettleMs: KNOCK_SETTLE_MS,
  });
  await life.run();
}

main().catch(() => {
  exitWhenDone(0);
});
