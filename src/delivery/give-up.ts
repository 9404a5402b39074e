// An outbox entry given up for good: it goes to failed/ (with the fallbacks it was handed to),
// and the sinks its failed sink's `fallback` names get the notification (delivery/fallback.ts).
import { moveToFailed, type OutboxEntry } from "../outbox/store.js";
import type { Attempt } from "./attempt.js";
import { queueFallbacks } from "./fallback.js";
import type { EntryRun } from "./steps.js";

// Given up for good: the entry goes to failed/ and its fallbacks (if any) get the notification.
export async function giveUp(
  run: EntryRun,
  entry: OutboxEntry,
  attempt: Extract<Attempt, { outcome: "failed" }>,
): Promise<Attempt> {
  const handOff = await queueFallbacks(entry, run.deps, run.cache);
  const kept = handOff.sent.length > 0 ? { ...entry, fallbackSent: handOff.sent } : entry;
  await moveToFailed(run.paths, kept, attempt.message, run.deps.now());
  return {
    ...attempt,
    ...(handOff.queued.length > 0 ? { fallback: handOff.queued } : {}),
    ...(handOff.skipped.length > 0 ? { fallbackSkipped: handOff.skipped } : {}),
  };
}
