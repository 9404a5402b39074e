// Acts on the pipeline's plan (delivery/plan.ts): local sinks are sent here, remote ones and
// those that ask presence are queued in the outbox for the worker, SubagentStop deliveries are
// held for coalescing, follow-ups are queued for later. What became of each delivery is one
// RunAttempt (journal/line.ts), the item of the run's log line.
import type { Deps } from "../deps.js";
import { deadline } from "../abort.js";
import { DEFAULT_IDLE_SECONDS, DEFAULT_MAX_BODY_LENGTH } from "../core/defaults.js";
import { toHookNotifyError } from "../errors.js";
import { scrub } from "../redact.js";
import type { PlannedEscalation } from "../escalation/plan.js";
import type { RunAttempt } from "../journal/line.js";
import type { DigestWait, QueuedDelivery } from "../outbox/store.js";
import { send } from "./send.js";
import type { Held, RoutedDelivery } from "./plan.js";

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
}

type Sent = Extract<RunAttempt, { outcome: "delivered" | "started" | "failed" }>;

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
  const [sent, queued, held, escalated] = await Promise.all([
    // Desktop and sound start here (in the worker that runs the hook's event: link/PROTOCOL.md).
    Promise.all(toSend.map((delivery) => sendOrSkip(delivery, budget, options))),
    queueRemote(toQueue, budget, options, routed),
    holdForCoalescing(options.held ?? [], budget, options),
    queueEscalations(options),
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

// Each held delivery goes to its group under held/ (coalesce-groups.ts; any sink, local ones too: the worker
// sends the merged notification).
async function holdForCoalescing(
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

// The escalations' follow-ups, durable in the outbox before the hook returns; true if any.
async function queueEscalations(options: DispatchOptions): Promise<boolean> {
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

// "when": "away" and `digest` sinks: the worker asks the presence probes before sending.
function asksPresence(delivery: RoutedDelivery): boolean {
  return delivery.entry.when === "away" || delivery.entry.digest !== undefined;
}

function digestOf(delivery: RoutedDelivery): DigestWait | undefined {
  const { digest, when } = delivery.entry;
  return digest === undefined ? undefined : { at: digest, awayOnly: when === "away" };
}

function idleSecondsOf(delivery: RoutedDelivery): number {
  return delivery.entry.idleSeconds ?? DEFAULT_IDLE_SECONDS;
}

function awayIfForced(options: DispatchOptions): "away" | undefined {
  return options.forceAway ? "away" : undefined;
}

async function queueRemote(
  deliveries: readonly RoutedDelivery[],
  budget: AbortSignal,
  options: DispatchOptions,
  routed: readonly string[],
): Promise<RunAttempt[]> {
  if (deliveries.length === 0) return [];
  const { enqueue } = await import("../outbox/store.js");
  const gate = await gateMaker(deliveries, options);
  return queueEach(deliveries, budget, options, "queued", (delivery, stored) =>
    enqueue(options.deps, {
      ...stored,
      presence: gate(delivery),
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

// One send here, through the one send (send.ts), as the run's attempt.
async function sendHere(
  delivery: RoutedDelivery,
  budget: AbortSignal,
  options: DispatchOptions,
): Promise<Sent> {
  const { entry, sink, notification } = delivery;
  const started = Date.now();
  const base = { sink: entry.name, type: entry.type, target: safeTarget(delivery) };
  const ms = () => Math.round(Date.now() - started);
  try {
    const report = await send({
      sink,
      options: entry.options,
      notification,
      sinkName: entry.name,
      timeoutMs: entry.timeoutMs,
      deps: options.deps,
      wait: options.wait,
      signal: budget,
      secrets: options.secrets,
    });
    const shown = {
      ...(report?.via ? { via: scrub(report.via, options.secrets) } : {}),
      ...(report?.action ? { action: scrub(report.action, options.secrets) } : {}),
    };
    return report?.started
      ? { ...base, outcome: "started", ok: true, started: true, ms: ms(), ...shown }
      : { ...base, outcome: "delivered", ok: true, ms: ms(), ...shown };
  } catch (error) {
    const known = toHookNotifyError(error);
    return {
      ...base,
      outcome: "failed",
      ok: false,
      ms: ms(),
      code: known.code,
      error: scrub(known.message, options.secrets),
      ...(known.status === undefined ? {} : { status: known.status }),
    };
  }
}

function safeTarget(delivery: RoutedDelivery): string {
  try {
    return delivery.sink.describeTarget(delivery.entry.options);
  } catch {
    return delivery.entry.type;
  }
}
