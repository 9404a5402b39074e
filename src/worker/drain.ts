// Drains the outbox: each due entry, with bounded concurrency, through the steps of
// delivery/steps.ts (retries with backoff and jitter, give-up by age, presence, fallback).
import { deadline } from "../abort.js";
import type { Deps } from "../deps.js";
import type { RetryPolicy } from "../http/retry-policy.js";
import type { Attempt } from "../delivery/attempt.js";
import type { Enrich } from "../delivery/deliver-entry.js";
import { attemptEntry, retryPolicyOf, targetOf, type EntryRun } from "../delivery/steps.js";
import { journal } from "../journal/append.js";
import { outboxPaths, type OutboxPaths } from "../outbox/paths.js";
import { readEntries, type Quarantined } from "../outbox/read-entries.js";
import type { PendingIndex } from "./pending-index.js";
import { ensureDirs, type OutboxEntry } from "../outbox/store.js";
import { offerReply } from "../reply/offer.js";

export interface DrainOptions {
  /** Deliveries in flight at once. Default 4. */
  concurrency?: number;
  /** Give up on entries older than this. Default 24 h. */
  maxAgeMs?: number;
  /** Stops the drain: in-flight attempts are aborted and rescheduled. */
  signal?: AbortSignal;
  /** Stop starting (and abort) attempts after this many ms. */
  deadlineMs?: number;
  /** Try every entry now, ignoring notBefore (`flush`). */
  force?: boolean;
  policy?: Partial<RetryPolicy>;
  random?: () => number;
  /** Called after each attempt (flush prints a line per delivery). */
  onResult?: (result: Attempt) => void;
  /** The service's session facts for a notification (worker/enrich-entry.ts). */
  enrich?: Enrich | undefined;
  /** The worker's due-time index of pending/ (pending-index.ts): the drain looks at what is due
   * in it instead of reading the folder. The worker's alone: `force` (flush) reads the folder. */
  index?: PendingIndex | undefined;
  /** Targets found down, until when (the worker keeps it between drains): their entries are
   * due no earlier than their probe's next try (delivery/steps.ts). */
  downUntil?: Map<string, number> | undefined;
  /** Also try now the entries waiting for an environment variable (a new worker may have it). */
  retryWaiting?: boolean;
}

export interface DrainSummary {
  delivered: number;
  /** Not sent on purpose: present for a "when": "away" sink, or an answered escalation. */
  skipped: number;
  cancelled: number;
  /** Moved into a digest (the person is away). */
  held: number;
  /** Looks at sent messages' receipts. */
  watched: number;
  retrying: number;
  failed: number;
  quarantined: number;
  /** Entries still pending after this drain. */
  remaining: number;
  /** Of those, the ones waiting for a ${VAR} this process does not have (see deliver-entry.ts). */
  waitingForEnv: number;
  /** Of those, looks at sent messages' receipts (delivered already: nothing is undelivered). */
  watching: number;
  /** Earliest notBefore among the others. */
  nextDueAt?: number;
}

// When an entry is due: its own time, or its target's next probe while the target is down (a
// receiver that stays down wakes the worker once per backoff step, not once per entry).
export function dueAt(entry: OutboxEntry, downUntil: ReadonlyMap<string, number>): number {
  if (entry.watch || entry.escalation) return entry.notBefore;
  return Math.max(entry.notBefore, downUntil.get(targetOf(entry)) ?? 0);
}

// An entry whose last attempt found its sink's ${VAR} unset: only another environment helps.
export function isWaitingForEnv(entry: OutboxEntry): boolean {
  return entry.lastError?.code === "CONFIG_ENV_MISSING";
}

// One pass over the due entries. Never throws for a delivery; every outcome is on disk and logged.
export async function drain(deps: Deps, options: DrainOptions = {}): Promise<DrainSummary> {
  const paths = outboxPaths(deps);
  ensureDirs(paths);
  const drainDeadline =
    options.deadlineMs === undefined ? undefined : deadline(options.deadlineMs, options.signal);
  const signal = drainDeadline?.signal ?? options.signal ?? new AbortController().signal;
  try {
    return await drainWithin(deps, paths, options, signal);
  } finally {
    drainDeadline?.clear();
  }
}

async function drainWithin(
  deps: Deps,
  paths: OutboxPaths,
  options: DrainOptions,
  signal: AbortSignal,
): Promise<DrainSummary> {
  const summary: DrainSummary = {
    delivered: 0,
    skipped: 0,
    cancelled: 0,
    held: 0,
    watched: 0,
    retrying: 0,
    failed: 0,
    quarantined: 0,
    remaining: 0,
    waitingForEnv: 0,
    watching: 0,
  };
  const onQuarantine = (item: Quarantined): void => {
    summary.quarantined++;
    journal(deps, {
      outbox: "quarantined",
      key: item.name,
      message: item.reason,
      movedTo: item.movedTo,
    });
  };
  const downUntil = options.downUntil ?? new Map<string, number>();
  const due = await dueEntries(paths, options, downUntil, onQuarantine, deps.now);
  const run: EntryRun = {
    deps,
    paths,
    signal,
    cache: new Map(),
    presence: new Map(),
    policy: retryPolicyOf(options),
    random: options.random ?? Math.random,
    force: options.force === true,
    enrich: options.enrich,
    targets: new Map(),
    downUntil,
  };
  const waiting = new Map<
    string,
    { sink: string; count: number; notBefore: number; message: string }
  >();
  await eachBounded(due, options.concurrency ?? 4, async (entry) => {
    if (signal.aborted) return;
    const result = await attemptEntry(entry, run);
    if (result.outcome === "delivered" && entry.replyTo) {
      const offered = await offerReply(entry, result.messageId, deps);
      if ("none" in offered) {
        const reason = `no typed reply can answer it: ${offered.none}`;
        journal(deps, {
          outbox: "receipt",
          sink: entry.sinkName,
          id: entry.notification.id,
          state: "unknown",
          reason,
        });
      }
    }
    if (result.outcome === "waiting") {
      const line = waiting.get(result.target) ?? { ...result, count: 0 };
      waiting.set(result.target, { ...line, count: line.count + 1 });
    }
    const counted = result.outcome === "retry" || result.outcome === "waiting";
    summary[counted ? "retrying" : result.outcome]++;
    options.onResult?.(result);
  });
  // One line per target that stayed down, not one per entry that waits for it.
  for (const { sink, count, notBefore, message } of waiting.values())
    journal(deps, {
      outbox: "waiting",
      sink,
      count,
      message: `${String(count)} ${message}`,
      notBefore: new Date(notBefore).toISOString(),
    });
  Object.assign(summary, await whatIsLeft(paths, options.index, downUntil));
  return summary;
}

// What is due now: from the worker's index, or (flush, a test) from one read of the folder.
// `force` (flush) tries retries early, never an escalation before its window is over, nor a
// receipt before its next look (the service asks for sparing polls).
async function dueEntries(
  paths: OutboxPaths,
  options: DrainOptions,
  downUntil: ReadonlyMap<string, number>,
  onQuarantine: (item: Quarantined) => void,
  clock: () => number,
): Promise<OutboxEntry[]> {
  const { index } = options;
  if (index && options.force !== true) {
    await index.refresh(onQuarantine);
    return index.due(clock(), downUntil, { retryWaiting: options.retryWaiting === true });
  }
  const entries = await readEntries(paths, paths.pending, onQuarantine);
  const now = clock();
  return entries.filter(
    (entry) =>
      (options.force === true && !entry.escalation && !entry.watch) ||
      dueAt(entry, downUntil) <= now ||
      (options.retryWaiting === true && isWaitingForEnv(entry)),
  );
}

// The counts after a drain and the next due time.
async function whatIsLeft(
  paths: OutboxPaths,
  index: PendingIndex | undefined,
  downUntil: ReadonlyMap<string, number>,
): Promise<Pick<DrainSummary, "remaining" | "waitingForEnv" | "watching" | "nextDueAt">> {
  if (index) {
    const nextDueAt = index.nextDueAt(downUntil);
    return { ...index.counts(), ...(nextDueAt === undefined ? {} : { nextDueAt }) };
  }
  const left = await readEntries(paths, paths.pending, () => undefined);
  const active = left.filter((entry) => !isWaitingForEnv(entry));
  let nextDueAt: number | undefined;
  // A loop, not Math.min(...spread): that throws past ~125,000 arguments.
  for (const entry of active) {
    const at = dueAt(entry, downUntil);
    if (at < (nextDueAt ?? Infinity)) nextDueAt = at;
  }
  return {
    remaining: left.length,
    waitingForEnv: left.length - active.length,
    watching: left.filter((entry) => entry.watch).length,
    ...(nextDueAt === undefined ? {} : { nextDueAt }),
  };
}

// Runs `work` over items with at most `limit` in flight.
async function eachBounded<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}
