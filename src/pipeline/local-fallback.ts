// Fallback for what failed in the hook's own run (desktop, sound, a direct send): the sinks the
// failed sink's `fallback` names get the notification through the outbox, once each, as the
// worker does for what it gives up on (worker/fallback.ts).
import type { DeliverOptions, Outcome } from "./deliver.js";
import type { RoutedDelivery } from "./route.js";

// Each failed outcome whose sink names fallbacks, with the fallbacks that were queued.
export async function queueLocalFallbacks(
  outcomes: Outcome[],
  deliveries: readonly RoutedDelivery[],
  options: DeliverOptions,
): Promise<Outcome[]> {
  const entryOf = (sink: string) => deliveries.find((d) => d.entry.name === sink);
  if (!outcomes.some((o) => !o.ok && entryOf(o.sink)?.entry.fallback)) return outcomes;
  const { enqueue } = await import("../outbox/store.js");
  return Promise.all(
    outcomes.map(async (outcome) => {
      const delivery = entryOf(outcome.sink);
      if (outcome.ok || !delivery?.entry.fallback) return outcome;
      const queued: string[] = [];
      // A sink this run sends the notification to anyway (`test` sends to every sink) gets it once.
      const others = delivery.entry.fallback.filter((name) => !entryOf(name));
      for (const sinkName of others) {
        const stored = { notification: delivery.notification, sinkName, fallbackOf: outcome.sink };
        const written = await enqueue(options.deps, {
          ...stored,
          configPath: options.configPath,
          projectDir: options.projectDir,
        }).then(
          () => true,
          () => false,
        );
        if (written) queued.push(sinkName);
      }
      return queued.length > 0 ? { ...outcome, fallback: queued } : outcome;
    }),
  );
}
