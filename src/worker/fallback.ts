// A sink that gave up on a notification hands it to the sinks its `fallback` names: each gets it
// once, as its own outbox entry marked with the sink it stands in for.
import type { Deps } from "../deps.js";
import { enqueue, type OutboxEntry } from "../outbox/store.js";
import { configOf, type ConfigCache } from "./deliver-entry.js";

/** The fallbacks queued for a given-up entry, and those it had already been handed to. */
export interface FallbackHandOff {
  queued: string[];
  /** Every target handed this notification by this sink so far (kept on the failed entry). */
  sent: string[];
}

// Queues the entry's notification for each fallback not yet handed it (a `flush
// --retry-failed` that fails again does not send it twice). A config that cannot be read
// now queues nothing: the failed entry keeps the notification for a person.
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
    return { queued: [], sent: already };
  }
  const queued: string[] = [];
  for (const sinkName of targets.filter((name) => !already.includes(name))) {
    try {
      await enqueue(deps, {
        notification: entry.notification,
        sinkName,
        configPath: entry.configPath,
        projectDir: entry.projectDir,
        fallbackOf: entry.sinkName,
      });
      queued.push(sinkName);
    } catch {
      // a full or read-only disk: the failed entry still holds the notification
    }
  }
  return { queued, sent: [...already, ...queued] };
}
