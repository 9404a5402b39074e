// Acts on the pipeline's plan (delivery/plan.ts): local sinks are sent here, remote ones and
// those that ask presence are queued in the outbox for the worker, SubagentStop deliveries are
// held for coalescing, follow-ups are queued for later. What became of each delivery is one
// RunAttempt (journal/line.ts), the item of the run's log line.
import type { Deps } from "../deps.js";
import { deadline } from "../abort.js";
import type { PlannedEscalation } from "../escalation/plan.js";
import type { RunAttempt } from "../journal/run-attempt.js";
import type { Held, RoutedDelivery } from "./plan.js";
import {
  awayIfForced,
  holdForCoalescing,
  idleSecondsOf,
  queueEscalations,
  queueRemote,
  asksPresence,
} from "./queue.js";
import { safeTarget, sendHere } from "./send-now.js";

/** Who sends what a run queued: a function that starts a worker (or finds one running: the
 * hook's, link/spawn.ts, given by the caller), or "this-round" for the worker that runs a
 * handed-over event: its round drains the outbox after its events, so it never wakes itself. */
export type WhenQueued = "this-round" | ((deps: Deps) => Promise<unknown>);

export interface DispatchOptions {
  deps: Deps;
  /** Milliseconds left for all deliveries together. */
  budgetMs: number;
  /** Wait for each sink's result (--wait, test); on the hook path local programs are only started. */
  wait: boolean;
  secrets: readonly string[];
  /** What the background worker needs to re-read the same config for a queued delivery. */
  configPath?: string | undefined;
  projectDir?: string | undefined;
  /** Deliveries held for subagent coalescing, and the body length their merge may use. */
  held?: readonly Held[] | undefined;
  maxBodyLength?: number | undefined;
  /** Follow-ups to queue, each due after its window unless the session is answered first. */
  escalations?: readonly PlannedEscalation[] | undefined;
  /** `test --away`: "when": "away" sinks take the away path without asking the probes. */
  forceAway?: boolean | undefined;
  whenQueued: WhenQueued;
  /** The sink whose message for this run takes a typed reply (replySink, a waiting event). */
  replySink?: string | undefined;
  /** In the worker, how long a player or a voice waits at most for the banner's program. */
  audibleAfterMs?: number | undefined;
}

// Local sinks run here, concurrently under one deadline. On the hook path remote sinks go to the
// outbox and the background worker, so the agent never waits for a network round trip.
export async function dispatch(
  deliveries: readonly RoutedDelivery[],
  options: DispatchOptions,
): Promise<RunAttempt[]> {
  const budgetDeadline = deadline(options.budgetMs);
  const budget = budgetDeadline.signal;
  // A "when": "away" or digest sink goes to the worker too: the presence probes start programs,
  // and the hook does not wait for them.
  const toQueue = options.wait ? [] : deliveries.filter((d) => d.sink.remote || asksPresence(d));
  const toSend = deliveries.filter((d) => !toQueue.includes(d));
  // Every sink this notification goes to: a fallback never hands it to one of them again.
  const routed = [...deliveries, ...(options.held ?? [])].map((d) => d.entry.name);
  // In the worker the banner goes first (issue #41): what is written for later (queued, held,
  // follow-ups) waits, as a player does, until the sinks that are not audible were sent; the
  // event is durable in events/ meanwhile, and the round's drain sends only after this run.
  let quietSent: () => void = () => undefined;
  const writesAfter =
    options.deps.worker === true
      ? new Promise<void>((resolve) => (quietSent = resolve))
      : Promise.resolve();
  const later = <T>(write: () => Promise<T>) => writesAfter.then(write);
  const [sent, queued, held, escalated] = await Promise.all([
    sendLocal(toSend, budget, options, quietSent),
    later(() => queueRemote(toQueue, budget, options, routed)),
    later(() => holdForCoalescing(options.held ?? [], budget, options)),
    later(() => queueEscalations(options)),
  ]).finally(() => {
    budgetDeadline.clear();
  });
  const withFallbacks = await fallBack(sent, deliveries, options, routed);
  const fellBack = withFallbacks.some((a) => a.outcome === "failed" && a.fallback);
  const kept = (a: RunAttempt) => a.outcome === "queued" || a.outcome === "coalesced";
  const queuedAny = queued.some(kept) || held.some(kept) || escalated;
  if ((queuedAny || fellBack) && options.whenQueued !== "this-round")
    await options.whenQueued(options.deps);
  return [...withFallbacks, ...queued, ...held];
}

/** How long a player or a voice waits at most for the banner's program (sendLocal), unless the
 * options say otherwise. */
const AUDIBLE_AFTER_MS = 150;

// Desktop and sound start here (in the worker that runs the hook's event: link/PROTOCOL.md).
// The banner first (issue #41: it is what the person waits for): a player or a voice starts once
// the sinks that are not audible were sent, in the worker (it waits for the daemon's reply) at
// most AUDIBLE_AFTER_MS later, so the notifier does not share a small machine's cores with the
// player while it starts; elsewhere (the hook watches what it starts) right after their start.
async function sendLocal(
  toSend: readonly RoutedDelivery[],
  budget: AbortSignal,
  options: DispatchOptions,
  quietSent: () => void,
): Promise<Awaited<ReturnType<typeof sendOrSkip>>[]> {
  const quiet = new Map(
    toSend
      .filter((d) => d.sink.audible !== true)
      .map((d) => [d, sendOrSkip(d, budget, options)] as const),
  );
  let timer: NodeJS.Timeout | undefined;
  const after =
    quiet.size === 0
      ? Promise.resolve()
      : options.deps.worker === true
        ? Promise.race([
            Promise.allSettled(quiet.values()),
            new Promise(
              (resolve) =>
                (timer = setTimeout(resolve, options.audibleAfterMs ?? AUDIBLE_AFTER_MS)),
            ),
          ])
        : new Promise((resolve) => setImmediate(resolve));
  void after.then(quietSent);
  try {
    return await Promise.all(
      toSend.map(async (d) => {
        const sending = quiet.get(d);
        if (sending) return sending;
        await after;
        return sendOrSkip(d, budget, options);
      }),
    );
  } finally {
    clearTimeout(timer);
  }
}

// What failed here goes to its sink's fallbacks (fallback.ts, loaded only then).
async function fallBack<A extends RunAttempt>(
  attempts: A[],
  deliveries: readonly RoutedDelivery[],
  options: DispatchOptions,
  routed: readonly string[],
): Promise<A[]> {
  const named = (a: A) => deliveries.some((d) => d.entry.name === a.sink && d.entry.fallback);
  if (!attempts.some((a) => a.outcome === "failed" && named(a))) return attempts;
  const { queueRunFallbacks } = await import("./fallback.js");
  return queueRunFallbacks(attempts, deliveries, options, routed);
}

// --wait and test: a "when": "away" sink asks the presence probes here (a person is waiting
// for the answer anyway) and is skipped while they say present.
async function sendOrSkip(
  delivery: RoutedDelivery,
  budget: AbortSignal,
  options: DispatchOptions,
): Promise<Extract<RunAttempt, { outcome: "delivered" | "started" | "failed" | "skipped" }>> {
  if (delivery.entry.when !== "away") return sendHere(delivery, budget, options);
  const [{ askPresence }, { presenceGate }] = await Promise.all([
    import("./presence-gate.js"),
    import("../presence/gate-env.js"),
  ]);
  const gate = presenceGate(options.deps, idleSecondsOf(delivery), awayIfForced(options));
  const presence = await askPresence(gate, options.deps);
  if (presence.state !== "present")
    return { ...(await sendHere(delivery, budget, options)), presence };
  return {
    sink: delivery.entry.name,
    type: delivery.entry.type,
    target: safeTarget(delivery),
    outcome: "skipped",
    ok: true,
    ms: presence.ms,
    presence,
    skipped: `present: ${presence.probe}: ${presence.detail}`,
  };
}
