// Drains the outbox: bounded concurrency, retries with backoff and jitter, give-up by age.
import { deadline } from "../abort.js";
import type { Deps } from "../deps.js";
import { toHookNotifyError } from "../errors.js";
import { scrub } from "../redact.js";
import { DEFAULT_RETRY_POLICY, decideRetry, type RetryPolicy } from "../http/retry-policy.js";
import { deliverEntry, type ConfigCache } from "./deliver-entry.js";
import { queueFallbacks } from "./fallback.js";
import { lookAtReceipt, queueReceiptWatch } from "./receipt-watch.js";
import { holdForDigest } from "../outbox/digest.js";
import { checkGate, type PresenceCache } from "../outbox/gate.js";
import type { PresenceBrief } from "../journal/line.js";
import { journal } from "../journal/append.js";
import { outboxPaths, type OutboxPaths } from "../outbox/paths.js";
import { readEntries, type EntryCache } from "../outbox/read-entries.js";
import {
  ensureDirs,
  moveToFailed,
  removeEntry,
  writeEntry,
  type OutboxEntry,
} from "../outbox/store.js";

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
  onResult?: (result: DeliveryResult) => void;
  /** Parsed entries kept between drains (the worker's loop). */
  cache?: EntryCache;
  /** Also try now the entries waiting for an environment variable (a new worker may have it). */
  retryWaiting?: boolean;
}

/** What became of one entry in this drain. */
export interface DeliveryResult {
  key: string;
  sink: string;
  id: string;
  /** skipped: "when": "away" and the person is there; cancelled: the session was answered;
   * held: a digest sink while the person is away (outbox/digest.ts); watched: a look at a sent
   * message's receipt (worker/receipt-watch.ts), not a delivery. */
  outcome: "delivered" | "retry" | "failed" | "skipped" | "cancelled" | "held" | "watched";
  attempts: number;
  code?: string;
  message?: string;
  notBefore?: number;
  presence?: PresenceBrief;
  /** A fallback: the sink that gave up on this notification first. */
  fallbackOf?: string;
  /** Given up: the fallbacks the notification was handed to now. */
  fallback?: string[];
  /** Given up: the fallbacks not handed it because they already have it. */
  fallbackSkipped?: string[];
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

// An entry whose last attempt found its sink's ${VAR} unset: only another environment helps.
export function isWaitingForEnv(entry: OutboxEntry): boolean {
  return entry.lastError?.code === "CONFIG_ENV_MISSING";
}

// One pass over the due entries. Never throws for a delivery; every outcome is on disk and logged.
export async function drain(deps: Deps, options: DrainOptions = {}): Promise<DrainSummary> {
  const paths = outboxPaths(deps);
  await ensureDirs(paths);
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
  const entries = await readEntries(
    paths,
    paths.pending,
    (item) => {
      summary.quarantined++;
      journal(deps, {
        outbox: "quarantined",
        key: item.name,
        message: item.reason,
        movedTo: item.movedTo,
      });
    },
    options.cache,
  );
  const now = deps.now();
  // `force` (flush) tries retries early, never an escalation before its window is over, nor a
  // receipt before its next look (the service asks for sparing polls).
  const due = entries.filter(
    (entry) =>
      (options.force === true && !entry.escalation && !entry.watch) ||
      entry.notBefore <= now ||
      (options.retryWaiting === true && isWaitingForEnv(entry)),
  );
  const run: AttemptRun = {
    deps,
    paths,
    options,
    signal,
    cache: new Map(),
    presence: new Map(),
  };
  await eachBounded(due, options.concurrency ?? 4, async (entry) => {
    if (signal.aborted) return;
    const result = await attempt(entry, run);
    summary[result.outcome === "retry" ? "retrying" : result.outcome]++;
    options.onResult?.(result);
  });
  const left = await readEntries(paths, paths.pending, () => undefined, options.cache);
  summary.remaining = left.length;
  const active = left.filter((entry) => !isWaitingForEnv(entry));
  summary.waitingForEnv = left.length - active.length;
  summary.watching = left.filter((entry) => entry.watch).length;
  if (active.length > 0) summary.nextDueAt = Math.min(...active.map((entry) => entry.notBefore));
  return summary;
}

interface AttemptRun {
  deps: Deps;
  paths: OutboxPaths;
  options: DrainOptions;
  signal: AbortSignal;
  cache: ConfigCache;
  presence: PresenceCache;
}

async function attempt(entry: OutboxEntry, run: AttemptRun): Promise<DeliveryResult> {
  const { watch } = entry;
  if (!watch) return attemptRemote(entry, run);
  const look = await lookAtReceipt({ ...entry, watch }, run.deps, run);
  return {
    key: entry.key,
    sink: entry.sinkName,
    id: entry.notification.id,
    attempts: entry.attempts,
    outcome: "watched",
    message: look.state,
    ...(look.notBefore === undefined ? {} : { notBefore: look.notBefore }),
  };
}

async function attemptRemote(entry: OutboxEntry, run: AttemptRun): Promise<DeliveryResult> {
  const { deps, paths, options } = run;
  const policy = {
    ...DEFAULT_RETRY_POLICY,
    ...options.policy,
    ...(options.maxAgeMs ? { maxAgeMs: options.maxAgeMs } : {}),
  };
  const base = {
    key: entry.key,
    sink: entry.sinkName,
    id: entry.notification.id,
    attempts: entry.attempts,
    ...(entry.fallbackOf === undefined ? {} : { fallbackOf: entry.fallbackOf }),
  };
  const secrets: string[] = [];
  if (deps.now() - entry.createdAt > policy.maxAgeMs) {
    const message = `gave up after ${entry.attempts} attempts: older than the ${Math.round(policy.maxAgeMs / 3_600_000)} h limit (${entry.lastError?.message ?? "no attempt made"})`;
    return fail(
      run,
      entry,
      { ...base, outcome: "failed", code: entry.lastError?.code ?? "SINK_TIMEOUT", message },
      secrets,
    );
  }
  const verdict = await checkGate(entry, deps, run.presence);
  const presence = verdict.presence ? { presence: verdict.presence } : {};
  const followUp = entry.notification.followUp ? { of: entry.notification.followUp.of } : {};
  if (!verdict.send && verdict.outcome === "held") {
    await holdForDigest(deps, paths, entry, verdict.presence);
    return { ...base, outcome: "held", message: verdict.message, ...presence };
  }
  if (!verdict.send) {
    await removeEntry(paths, entry.key);
    const { outcome, rule, message } = verdict;
    const line = { ...journalOf(base), rule, message };
    journal(deps, { outbox: outcome, ...line, ...presence, ...followUp });
    return { ...base, outcome, message, ...presence };
  }
  try {
    const { watch, ...receipt } = await deliverEntry(entry, deps, {
      cache: run.cache,
      signal: run.signal,
      secrets,
    });
    await removeEntry(paths, entry.key);
    if (watch && receipt.messageId !== undefined)
      await queueReceiptWatch(entry, { messageId: receipt.messageId, window: watch }, deps);
    const result: DeliveryResult = {
      ...base,
      attempts: entry.attempts + 1,
      outcome: "delivered",
      ...presence,
    };
    journal(deps, {
      outbox: "delivered",
      ...journalOf(result),
      ...receipt,
      ...presence,
      ...followUp,
    });
    return result;
  } catch (thrown) {
    const error = toHookNotifyError(thrown);
    const attempts = entry.attempts + 1;
    const now = deps.now();
    const decision = decideRetry(
      {
        attempts,
        createdAt: entry.createdAt,
        now,
        retryable: error.retryable,
        retryAfterMs: error.retryAfterMs,
      },
      policy,
      options.random ?? Math.random,
    );
    const failed = { ...base, attempts, code: error.code, message: scrub(error.message, secrets) };
    if (!decision.retry) {
      const reason =
        decision.reason === "too-old" ? `gave up (too old): ${failed.message}` : failed.message;
      return fail(
        run,
        { ...entry, attempts },
        { ...failed, outcome: "failed", message: reason },
        secrets,
      );
    }
    const lastError = { code: error.code, message: failed.message };
    // A flush whose shell lacks a ${VAR} asked nothing of the service: the entry stays as the
    // worker scheduled it (its Retry-After, its count), for the worker that has the variable.
    const untouched = options.force === true && error.code === "CONFIG_ENV_MISSING";
    const notBefore = untouched ? entry.notBefore : decision.notBefore;
    if (!untouched)
      await writeEntry(paths, paths.pending, { ...entry, attempts, notBefore, lastError });
    const result: DeliveryResult = { ...failed, outcome: "retry", notBefore };
    journal(
      deps,
      {
        outbox: "retry",
        ...journalOf(result),
        notBefore: new Date(notBefore).toISOString(),
      },
      secrets,
    );
    return result;
  }
}

// Given up for good: the entry goes to failed/ and its fallbacks (if any) get the notification.
async function fail(
  run: AttemptRun,
  entry: OutboxEntry,
  result: DeliveryResult,
  secrets: string[],
): Promise<DeliveryResult> {
  const handOff = await queueFallbacks(entry, run.deps, run.cache);
  const kept = handOff.sent.length > 0 ? { ...entry, fallbackSent: handOff.sent } : entry;
  await moveToFailed(run.paths, kept, result.message ?? "failed", run.deps.now());
  const withFallback = {
    ...result,
    ...(handOff.queued.length > 0 ? { fallback: handOff.queued } : {}),
    ...(handOff.skipped.length > 0 ? { fallbackSkipped: handOff.skipped } : {}),
  };
  journal(run.deps, { outbox: "failed", ...journalOf(withFallback) }, secrets);
  return withFallback;
}

function journalOf(result: Omit<DeliveryResult, "outcome">) {
  const { sink, id, key, code, message, attempts, fallbackOf, fallback, fallbackSkipped } = result;
  return {
    sink,
    id,
    key,
    attempts,
    ...(code ? { code } : {}),
    ...(message ? { message } : {}),
    ...(fallbackOf === undefined ? {} : { fallbackOf }),
    ...(fallback === undefined ? {} : { fallback }),
    ...(fallbackSkipped === undefined ? {} : { fallbackSkipped }),
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
