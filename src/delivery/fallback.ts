// A sink that gave up on a notification hands it to the sinks its `fallback` names: each gets it
// once, as its own outbox entry marked with the sink it stands in for. The one place for it:
// the worker's given-up entries (queueFallbacks) and what failed in a run itself (desktop,
// sound, a direct send: queueRunFallbacks) both go through queueFor.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Deps } from "../deps.js";
import type { Notification } from "../core/notification.js";
import type { RunAttempt } from "../journal/run-attempt.js";
import { outboxPaths } from "../outbox/paths.js";
import { enqueue, entryKey, type OutboxEntry } from "../outbox/store.js";
import { configOf, type ConfigCache } from "./deliver-entry.js";
import type { RoutedDelivery } from "./plan.js";

/** The fallbacks queued for a given-up entry, and those it had already been handed to. */
export interface FallbackHandOff {
  queued: string[];
  /** Every target handed this notification by this sink so far (kept on the failed entry). */
  sent: string[];
  /** Targets that already have the notification: it went to them (or is queued for them)
   * directly, so a fallback would be a second copy. */
  skipped: string[];
}

// Queues the entry's notification for each fallback not yet handed it (a `flush
// --retry-failed` that fails again does not send it twice) and that does not already have it:
// one of the notification's own sinks (the hook's `siblings`), or one with an entry for it in
// pending/. A config that cannot be read now queues nothing: the failed entry keeps the
// notification for a person.
export async function queueFallbacks(
  entry: OutboxEntry,
  deps: Deps,
  cache: ConfigCache,
): Promise<FallbackHandOff> {
  const already = entry.fallbackSent ?? [];
  let targets: string[];
  try {
    targets = configOf(entry, deps, cache).value.sinks[entry.sinkName]?.fallback ?? [];
  } catch {
    return { queued: [], sent: already, skipped: [] };
  }
  const fresh = targets.filter((name) => !already.includes(name));
  const { queued, skipped } = await queueFor(deps, {
    notification: entry.notification,
    failed: entry.sinkName,
    targets: fresh,
    configPath: entry.configPath,
    projectDir: entry.projectDir,
    // Along a chain of fallbacks (a → b → c), c is not handed what a's siblings have.
    siblings: [...(entry.siblings ?? []), entry.sinkName, ...fresh],
    hasIt: (name) => hasIt(entry, name, deps),
  });
  return { queued, sent: [...already, ...queued], skipped };
}

/** What a run needs to queue the fallbacks of what failed in it. */
interface RunFallbackOptions {
  deps: Deps;
  configPath?: string | undefined;
  projectDir?: string | undefined;
}

// Each failed attempt of a run whose sink names fallbacks, with the fallbacks that were queued
// and those skipped because the notification goes to them anyway. `routed`: every sink the
// notification goes to in this run (held ones too; `test` sends to every sink).
export async function queueRunFallbacks<A extends RunAttempt>(
  attempts: readonly A[],
  deliveries: readonly RoutedDelivery[],
  options: RunFallbackOptions,
  routed: readonly string[] = deliveries.map((d) => d.entry.name),
): Promise<A[]> {
  return Promise.all(
    attempts.map(async (attempt) => {
      const delivery = deliveries.find((d) => d.entry.name === attempt.sink);
      const targets = delivery?.entry.fallback;
      if (attempt.outcome !== "failed" || !delivery || !targets) return attempt;
      const { queued, skipped } = await queueFor(options.deps, {
        notification: delivery.notification,
        failed: attempt.sink,
        targets,
        configPath: options.configPath,
        projectDir: options.projectDir,
        siblings: [...routed, ...targets],
        hasIt: (name) => routed.includes(name),
      });
      return {
        ...attempt,
        ...(queued.length > 0 ? { fallback: queued } : {}),
        ...(skipped.length > 0 ? { fallbackSkipped: skipped } : {}),
      };
    }),
  );
}

/** One sink's fallbacks for one notification. */
interface FallbackRequest {
  notification: Notification;
  /** The sink that gave up: each entry is marked `fallbackOf` it. */
  failed: string;
  targets: readonly string[];
  configPath?: string | undefined;
  projectDir?: string | undefined;
  /** Written on each entry: the sinks that have the notification, for the next fallback. */
  siblings: string[];
  /** A target that already has the notification is skipped: a fallback would be a copy. */
  hasIt: (target: string) => boolean;
}

// Queues the notification for each target that does not have it yet; a write that fails (a full
// or read-only disk) leaves that target out: the failed entry or the log keeps the notification.
async function queueFor(
  deps: Deps,
  request: FallbackRequest,
): Promise<{ queued: string[]; skipped: string[] }> {
  const skipped = request.targets.filter((name) => request.hasIt(name));
  const queued: string[] = [];
  for (const sinkName of request.targets.filter((name) => !skipped.includes(name))) {
    try {
      await enqueue(deps, {
        notification: request.notification,
        sinkName,
        configPath: request.configPath,
        projectDir: request.projectDir,
        fallbackOf: request.failed,
        siblings: request.siblings,
      });
      queued.push(sinkName);
    } catch {
      // not written: see above
    }
  }
  return { queued, skipped };
}

// The target got the notification from the hook, or has its own delivery of it still pending.
function hasIt(entry: OutboxEntry, target: string, deps: Deps): boolean {
  if (entry.siblings?.includes(target)) return true;
  const key = entryKey(entry.notification.id, target);
  return existsSync(join(outboxPaths(deps).pending, `${key}.json`));
}
