// Fallback for what failed in the hook's own run (desktop, sound, a direct send): the sinks the
// failed sink's `fallback` names get the notification through the outbox, once each, as the
// worker does for what it gives up on (delivery/fallback.ts). A target this run gives the
// notification to anyway (routed to it, or held for it) is skipped: it already has it.
import type { DeliverOptions } from "./deliver.js";
import type { Outcome } from "../journal/line.js";
import type { RoutedDelivery } from "./route.js";

// Each failed outcome whose sink names fallbacks, with the fallbacks that were queued and those
// skipped because the notification goes to them anyway.
// `routed`: every sink the notification goes to in this run (held ones too).
export async function queueLocalFallbacks(
  outcomes: Outcome[],
  deliveries: readonly RoutedDelivery[],
  options: DeliverOptions,
  routed: readonly string[] = deliveries.map((d) => d.entry.name),
): Promise<Outcome[]> {
  const entryOf = (sink: string) => deliveries.find((d) => d.entry.name === sink);
  if (!outcomes.some((o) => !o.ok && entryOf(o.sink)?.entry.fallback)) return outcomes;
  const { enqueue } = await import("../outbox/store.js");
  return Promise.all(
    outcomes.map(async (outcome) => {
      const delivery = entryOf(outcome.sink);
      if (outcome.ok || !delivery?.entry.fallback) return outcome;
      const targets = delivery.entry.fallback;
      // A sink this run sends the notification to anyway (`test` sends to every sink) gets it once.
      const skipped = targets.filter((name) => routed.includes(name));
      const queued: string[] = [];
      for (const sinkName of targets.filter((name) => !skipped.includes(name))) {
        const written = await enqueue(options.deps, {
          notification: delivery.notification,
          sinkName,
          fallbackOf: outcome.sink,
          configPath: options.configPath,
          projectDir: options.projectDir,
          siblings: [...routed, ...targets],
        }).then(
          () => true,
          () => false,
        );
        if (written) queued.push(sinkName);
      }
      return {
        ...outcome,
        ...(queued.length > 0 ? { fallback: queued } : {}),
        ...(skipped.length > 0 ? { fallbackSkipped: skipped } : {}),
      };
    }),
  );
}
