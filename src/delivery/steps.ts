// The steps an outbox entry goes through when it is due, in order: the first step that decides
// ends the attempt, and what it decided (an Attempt, delivery/attempt.ts) is the entry's log line.
// Reading ENTRY_STEPS top to bottom is reading the policy.
import { toHookNotifyError } from "../errors.js";
import type { Deps } from "../deps.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "../http/retry-policy.js";
import { journal } from "../journal/append.js";
import type { PresenceBrief } from "../journal/run-attempt.js";
import type { OutboxPaths } from "../outbox/paths.js";
import { removeEntry, writeEntry, type OutboxEntry } from "../outbox/store.js";
import { decideAfterFailure } from "./after-failure.js";
import { toJournalLine, type Attempt } from "./attempt.js";
import { deliverEntry, type ConfigCache, type Enrich } from "./deliver-entry.js";
import { holdForDigest } from "./digest.js";
import { giveUp } from "./give-up.js";
import { checkGate, type PresenceCache } from "./presence-gate.js";
import { lookAtReceipt, queueReceiptWatch } from "./receipt-watch.js";

/** What the steps of one drain share. */
export interface EntryRun {
  deps: Deps;
  paths: OutboxPaths;
  signal: AbortSignal;
  /** Configs loaded in this drain (entries of one hook share them). */
  cache: ConfigCache;
  /** Presence answers asked for in this drain (entries of one hook share a probe). */
  presence: PresenceCache;
  policy: RetryPolicy;
  random: () => number;
  /** `flush`: tried early; a missing ${VAR} leaves the entry as the worker scheduled it. */
  force: boolean;
  enrich?: Enrich | undefined;
  /** Per target, what the first entry sent to it in this drain found: the others wait for it. */
  targets: Map<string, Promise<TargetState>>;
  /** Targets found down and their probe's next try, kept by the worker between drains. */
  downUntil: Map<string, number>;
}

/** A target is down when a send to it failed and will be retried (a refused connection, a 5xx). */
type TargetState = { up: true } | { up: false; notBefore: number; message: string };

/** What one attempt learns on its way through the steps. */
export interface Attempting {
  entry: OutboxEntry;
  base: Omit<Extract<Attempt, { outcome: "delivered" }>, "outcome">;
  /** The config's secrets, once a step loaded it: scrubbed from every line. */
  secrets: string[];
  presence?: PresenceBrief | undefined;
  /** Set when this attempt is its target's probe: says the others what it found. */
  probe?: ((state: TargetState) => void) | undefined;
}

type Step = (attempt: Attempting, run: EntryRun) => Promise<Attempt | undefined>;

/** The order is the policy: a receipt look is not a delivery; an entry too old is given up
 * before anyone is asked; the person's presence decides before the sink is tried. */
export const ENTRY_STEPS: readonly { name: string; step: Step }[] = [
  { name: "watch a receipt", step: watchReceipt },
  { name: "give up when too old", step: tooOld },
  { name: "ask presence (skip, cancel, hold for the digest)", step: presenceGate },
  { name: "wait while its target is down (one probe per target)", step: waitForTarget },
  { name: "send, then retry, or fail and fall back", step: sendOrRetry },
];

// Where an entry goes: its sink in its config (entries of one sink share a receiver).
export function targetOf(entry: OutboxEntry): string {
  return `${entry.sinkName}\0${entry.configPath ?? ""}\0${entry.projectDir ?? ""}`;
}

// Runs the entry through the steps; writes and returns what became of it. Never throws.
export async function attemptEntry(entry: OutboxEntry, run: EntryRun): Promise<Attempt> {
  const attempting: Attempting = {
    entry,
    base: {
      key: entry.key,
      sink: entry.sinkName,
      id: entry.notification.id,
      attempts: entry.attempts,
      ...(entry.fallbackOf === undefined ? {} : { fallbackOf: entry.fallbackOf }),
      ...(entry.notification.followUp ? { of: entry.notification.followUp.of } : {}),
    },
    secrets: [],
  };
  try {
    for (const { step } of ENTRY_STEPS) {
      const attempt = await step(attempting, run);
      if (!attempt) continue;
      const line = toJournalLine(attempt);
      if (line) journal(run.deps, line, attempting.secrets);
      return attempt;
    }
  } finally {
    attempting.probe?.({ up: true }); // settled already, unless a step threw
  }
  // sendOrRetry always decides; this is for the type checker.
  throw new Error("no step decided");
}

// The first entry for a target in this drain is its probe; the others wait for what it finds.
// Down: they are not tried, only put after the probe's next try, so a receiver that stays down
// costs one attempt (and one log line) per backoff step, not one per entry.
async function waitForTarget(attempting: Attempting, run: EntryRun): Promise<Attempt | undefined> {
  const { entry, base } = attempting;
  const target = targetOf(entry);
  const known = run.targets.get(target);
  if (!known) {
    run.targets.set(
      target,
      new Promise((resolve) => {
        attempting.probe = resolve;
      }),
    );
    return undefined;
  }
  const state = await known;
  if (state.up) return undefined;
  const notBefore = Math.max(entry.notBefore, state.notBefore);
  await writeEntry(run.paths, run.paths.pending, { ...entry, notBefore });
  const message = `waiting for ${entry.sinkName}: ${state.message}`;
  return { ...base, outcome: "waiting", target, message, notBefore };
}

async function watchReceipt({ entry, base }: Attempting, run: EntryRun) {
  const { watch } = entry;
  if (!watch) return undefined;
  const look = await lookAtReceipt({ ...entry, watch }, run.deps, run);
  return {
    ...base,
    outcome: "watched" as const,
    message: look.state,
    ...(look.notBefore === undefined ? {} : { notBefore: look.notBefore }),
  };
}

async function tooOld({ entry, base }: Attempting, run: EntryRun) {
  const { maxAgeMs } = run.policy;
  if (run.deps.now() - entry.createdAt <= maxAgeMs) return undefined;
  const message = `gave up after ${entry.attempts} attempts: older than the ${Math.round(maxAgeMs / 3_600_000)} h limit (${entry.lastError?.message ?? "no attempt made"})`;
  const code = entry.lastError?.code ?? "SINK_TIMEOUT";
  return giveUp(run, entry, { ...base, outcome: "failed", code, message });
}

async function presenceGate(attempting: Attempting, run: EntryRun) {
  const { entry, base } = attempting;
  const verdict = await checkGate(entry, run.deps, run.presence);
  attempting.presence = verdict.presence;
  const presence = verdict.presence ? { presence: verdict.presence } : {};
  if (verdict.send) return undefined;
  if (verdict.outcome === "held") {
    await holdForDigest(run.deps, run.paths, entry, verdict.presence);
    return { ...base, outcome: "held" as const, message: verdict.message, ...presence };
  }
  await removeEntry(run.paths, entry.key);
  const { outcome, rule, message } = verdict;
  return { ...base, outcome, rule, message, ...presence };
}

async function sendOrRetry(attempting: Attempting, run: EntryRun): Promise<Attempt> {
  const { entry, base, secrets } = attempting;
  const presence = attempting.presence ? { presence: attempting.presence } : {};
  try {
    const { watch, messageId } = await deliverEntry(entry, run.deps, {
      cache: run.cache,
      signal: run.signal,
      secrets,
      enrich: run.enrich,
    });
    await removeEntry(run.paths, entry.key);
    if (watch && messageId !== undefined)
      await queueReceiptWatch(entry, { messageId, window: watch }, run.deps);
    attempting.probe?.({ up: true });
    run.downUntil.delete(targetOf(entry));
    const sent = messageId === undefined ? {} : { messageId };
    return { ...base, attempts: entry.attempts + 1, outcome: "delivered", ...sent, ...presence };
  } catch (thrown) {
    return retryOrFail(attempting, run, thrown);
  }
}

async function retryOrFail(
  { entry, base, secrets, probe }: Attempting,
  run: EntryRun,
  thrown: unknown,
): Promise<Attempt> {
  const error = toHookNotifyError(thrown);
  const attempt = await decideAfterFailure({ entry, base, secrets }, run, error);
  // The receiver did not take it and may later: the target is down until then. A ${VAR} this
  // process lacks says nothing about the receiver.
  const down = attempt.outcome === "retry" && error.code !== "CONFIG_ENV_MISSING";
  if (probe) {
    if (down) run.downUntil.set(targetOf(entry), attempt.notBefore);
    else run.downUntil.delete(targetOf(entry));
  }
  probe?.(
    down ? { up: false, notBefore: attempt.notBefore, message: attempt.message } : { up: true },
  );
  return attempt;
}

/** The retry policy of a drain: the defaults, the caller's, and its age limit. */
export function retryPolicyOf(options: {
  policy?: Partial<RetryPolicy> | undefined;
  maxAgeMs?: number | undefined;
}): RetryPolicy {
  return {
    ...DEFAULT_RETRY_POLICY,
    ...options.policy,
    ...(options.maxAgeMs ? { maxAgeMs: options.maxAgeMs } : {}),
  };
}
