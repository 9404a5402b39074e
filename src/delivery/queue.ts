// What a run leaves to the worker, durable in the outbox before the hook returns: remote sinks
// and those that ask presence (pending/), SubagentStops held for coalescing (held/), follow-ups.
// A delivery the outbox cannot take is sent now, once (send-now.ts).
import { DEFAULT_IDLE_SECONDS, DEFAULT_MAX_BODY_LENGTH } from "../core/defaults.js";
import type { RunAttempt } from "../journal/run-attempt.js";
import type { DigestWait, QueuedDelivery } from "../outbox/store.js";
import type { DispatchOptions } from "./dispatch.js";
import type { Held, RoutedDelivery } from "./plan.js";
import { safeTarget, sendHere } from "./send-now.js";

// Each held delivery goes to its group under held/ (coalesce-groups.ts; any sink, local ones too: the worker
// sends the merged notification).
export async function holdForCoalescing(
  held: readonly Held[],
  budget: AbortSignal,
  options: DispatchOptions,
): Promise<RunAttempt[]> {
  if (held.length === 0) return [];
  const { hold } = await import("./coalesce-groups.js");
  const gate = await gateMaker(held, options);
  return queueEach(held, budget, options, "coalesced", (delivery, stored) =>
    hold(options.deps, {
      ...stored,
      presence: gate(delivery),
      holdMs: delivery.holdMs,
      maxBodyLength: options.maxBodyLength ?? DEFAULT_MAX_BODY_LENGTH,
    }),
  );
}

// The escalations' follow-ups, durable in the outbox before the hook returns; true if any.
export async function queueEscalations(options: DispatchOptions): Promise<boolean> {
  const escalations = options.escalations ?? [];
  if (escalations.length === 0) return false;
  const [{ enqueue }, { sessionKey }, { presenceGate }] = await Promise.all([
    import("../outbox/store.js"),
    import("../escalation/answers.js"),
    import("../presence/gate-env.js"),
  ]);
  const now = options.deps.now();
  // A follow-up is not sent while you are at the session's terminal (the worker asks then).
  const presence = presenceGate(options.deps, DEFAULT_IDLE_SECONDS, awayIfForced(options));
  const results = await Promise.allSettled(
    escalations.map((escalation) =>
      enqueue(options.deps, {
        notification: escalation.notification,
        sinkName: escalation.sinkName,
        configPath: options.configPath,
        projectDir: options.projectDir,
        notBefore: now + escalation.afterSeconds * 1000,
        presence,
        escalation: {
          session: sessionKey(escalation.notification.sessionId ?? ""),
          since: now,
          cancelOn: escalation.cancelOn,
        },
      }),
    ),
  );
  return results.some((result) => result.status === "fulfilled");
}

// What the worker needs to ask the presence probes, for each "when": "away" delivery (loaded
// only when there is one).
async function gateMaker(deliveries: readonly RoutedDelivery[], options: DispatchOptions) {
  if (!deliveries.some(asksPresence)) return () => undefined;
  const { presenceGate } = await import("../presence/gate-env.js");
  return (delivery: RoutedDelivery) =>
    asksPresence(delivery)
      ? presenceGate(options.deps, idleSecondsOf(delivery), awayIfForced(options))
      : undefined;
}

// The agent's pane and process for the reply sink's message (loaded only when there is one).
async function replyGate(deliveries: readonly RoutedDelivery[], options: DispatchOptions) {
  if (!deliveries.some((delivery) => delivery.entry.name === options.replySink)) return undefined;
  const { presenceGate } = await import("../presence/gate-env.js");
  return presenceGate(options.deps, DEFAULT_IDLE_SECONDS);
}

// "when": "away" and `digest` sinks: the worker asks the presence probes before sending.
export function asksPresence(delivery: RoutedDelivery): boolean {
  return delivery.entry.when === "away" || delivery.entry.digest !== undefined;
}

function digestOf(delivery: RoutedDelivery): DigestWait | undefined {
  const { digest, when } = delivery.entry;
  return digest === undefined ? undefined : { at: digest, awayOnly: when === "away" };
}

export function idleSecondsOf(delivery: RoutedDelivery): number {
  return delivery.entry.idleSeconds ?? DEFAULT_IDLE_SECONDS;
}

export function awayIfForced(options: DispatchOptions): "away" | undefined {
  return options.forceAway ? "away" : undefined;
}

export async function queueRemote(
  deliveries: readonly RoutedDelivery[],
  budget: AbortSignal,
  options: DispatchOptions,
  routed: readonly string[],
): Promise<RunAttempt[]> {
  if (deliveries.length === 0) return [];
  const { enqueue } = await import("../outbox/store.js");
  const gate = await gateMaker(deliveries, options);
  const replyTo = await replyGate(deliveries, options);
  return queueEach(deliveries, budget, options, "queued", (delivery, stored) =>
    enqueue(options.deps, {
      ...stored,
      presence: gate(delivery),
      replyTo: delivery.entry.name === options.replySink ? replyTo : undefined,
      digest: digestOf(delivery),
      siblings: routed.filter((name) => name !== delivery.entry.name),
    }),
  );
}

// Writes each delivery to disk for the worker. If that fails (disk full, read-only or foreign
// state folder, no HOME) it is sent now, once, rather than lost in silence.
async function queueEach<D extends RoutedDelivery>(
  deliveries: readonly D[],
  budget: AbortSignal,
  options: DispatchOptions,
  outcome: "queued" | "coalesced",
  store: (delivery: D, stored: QueuedDelivery) => Promise<unknown>,
): Promise<RunAttempt[]> {
  return Promise.all(
    deliveries.map(async (delivery): Promise<RunAttempt> => {
      const started = Date.now();
      const { entry, notification } = delivery;
      try {
        await store(delivery, {
          notification,
          sinkName: entry.name,
          configPath: options.configPath,
          projectDir: options.projectDir,
        });
      } catch (error) {
        // With no outbox there is no second chance: one attempt now, and the hook says on
        // stderr what became of it (commands/run.ts). Retries belong to the worker alone.
        const attempt = await sendHere(delivery, budget, options);
        return { ...attempt, attempts: 1, outboxError: describeFsError(error) };
      }
      const base = {
        sink: entry.name,
        type: entry.type,
        target: safeTarget(delivery),
        ok: true as const,
        ms: Math.round(Date.now() - started),
      };
      return outcome === "queued"
        ? { ...base, outcome, queued: true }
        : { ...base, outcome, held: true };
    }),
  );
}

function describeFsError(error: unknown): string {
  const { code, path } = error as NodeJS.ErrnoException;
  return `${code ?? "error"}${path ? ` at ${path}` : ""}`;
}
