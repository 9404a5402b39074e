// A sink that gave up on a notification hands it to the sinks its `fallback` names: each gets it
// once, as its own outbox entry marked with the sink it stands in for.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Deps } from "../deps.js";
import { outboxPaths } from "../outbox/paths.js";
import { enqueue, entryKey, type OutboxEntry } from "../outbox/store.js";
import { configOf, type ConfigCache } from "./deliver-entry.js";

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
  const skipped = fresh.filter((name) => hasIt(entry, name, deps));
  const queued: string[] = [];
  for (const sinkName of fresh.filter((name) => !skipped.includes(name))) {
    try {
      await enqueue(deps, {
        notification: entry.notification,
        sinkName,
        configPath: entry.configPath,
        projectDir: entry.projectDir,
        fallbackOf: entry.sinkName,
        // Along a chain of fallbacks (a → b → c), c is not handed what a's siblings have.
        siblings: [...(entry.siblings ?? []), entry.sinkName, ...fresh],
      });
      queued.push(sinkName);
    } catch {
      // a full or read-only disk: the failed entry still holds the notification
    }
  }
  return { queued, sent: [...already, ...queued], skipped };
}

// The target got the notification from the hook, or has its own delivery of it still pending.
function hasIt(entry: OutboxEntry, target: string, deps: Deps): boolean {
  if (entry.siblings?.includes(target)) return true;
  const key = entryKey(entry.notification.id, target);
  return existsSync(join(outboxPaths(deps).pending, `${key}.json`));
}
