import type { Deps } from "../deps.js";
import { deadline } from "../abort.js";
import { DEFAULT_IDLE_SECONDS } from "../core/defaults.js";
import { toHookNotifyError } from "../errors.js";
import { scrub } from "../redact.js";
import type { PlannedEscalation } from "../escalation/plan.js";
import type { Outcome } from "../journal/line.js";
import type { DigestWait, QueuedDelivery } from "../outbox/store.js";
import { send } from "../delivery/send.js";
import { queueLocalFallbacks } from "./local-fallback.js";
import type { Held } from "./policy.js";
import type { RoutedDelivery } from "./route.js";
import { DEFAULT_MAX_BODY_LENGTH } from "../core/defaults.js";

export interface DeliverOptions {
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
  /** Who sends what this run queued. Default: start a worker (or find one running). The worker
   * that runs a handed-over event passes "this-round": the round it is in drains the outbox
   * after its events, so it never wakes itself over its own socket. */
  queuedFor?: "a-worker" | "this-round" | undefined;
  /** The sink whose message for this run takes a typed reply (replySink, a waiting event). */
  replySink?: string | undefined;
}

// Local sinks run here, concurrently under one deadline. On the hook path remote sinks go to the
// outbox and the background worker, so the agent never waits for a network round trip.
export async function deliver(
  deliveries: readonly RoutedDelivery[],
  options: DeliverOptions,
): Promise<Outcome[]> {
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
    Promise.all(toSend.map((delivery) => deliverOrSkip(delivery, budget, options))),
    queueRemote(toQueue, budget, options, routed),
    holdForCoalescing(options.held ?? [], budget, options),
    queueEscalations(options),
  ]).finally(() => {
    budgetDeadline.clear();
  });
  const withFallbacks = await queueLocalFallbacks(
    sent.map(withoutRetryable),
    deliveries,
    options,
    routed,
  );
  const fellBack = withFallbacks.some((o) => o.fallback);
  const queuedAny = queued.some((o) => o.queued) || held.some((o) => o.held) || escalated;
  if ((queuedAny || fellBack) && options.queuedFor !== "this-round") {
    const { startWorker } = await import("../link/spawn.js");
    await startWorker(options.deps);
  }
  return [...withFallbacks, ...queued, ...held];
}

// Each held delivery goes to its group under outbox/held/ (any sink, local ones too: the worker
// sends the merged notification).
async function holdForCoalescing(
  held: readonly Held[],
  budget: AbortSignal,
  options: DeliverOptions,
): Promise<Outcome[]> {
  if (held.length === 0) return [];
  const { hold } = await import("../outbox/held.js");
  const gate = await gateMaker(held, options);
  return handOver(held, budget, options, "held", (delivery, stored) =>
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
async function deliverOrSkip(
  delivery: RoutedDelivery,
  budget: AbortSignal,
  options: DeliverOptions,
): Promise<Outcome> {
  if (delivery.entry.when !== "away") return deliverOne(delivery, budget, options);
  const [{ askPresence }, { presenceGate }] = await Promise.all([
    import("../delivery/presence-gate.js"),
    import("../presence/gate-env.js"),
  ]);
  const gate = presenceGate(options.deps, idleSecondsOf(delivery), awayIfForced(options));
  const presence = await askPresence(gate, options.deps);
  if (presence.state !== "present")
    return { ...(await deliverOne(delivery, budget, options)), presence };
  const { entry } = delivery;
  const skipped = `present: ${presence.probe}: ${presence.detail}`;
  const target = safeTarget(delivery);
  return {
    sink: entry.name,
    type: entry.type,
    target,
    ok: true,
    ms: presence.ms,
    presence,
    skipped,
  };
}

// The escalations' follow-ups, durable in the outbox before the hook returns; true if any.
async function queueEscalations(options: DeliverOptions): Promise<boolean> {
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
async function gateMaker(deliveries: readonly RoutedDelivery[], options: DeliverOptions) {
  if (!deliveries.some(asksPresence)) return () => undefined;
  const { presenceGate } = await import("../presence/gate-env.js");
  return (delivery: RoutedDelivery) =>
    asksPresence(delivery)
      ? presenceGate(options.deps, idleSecondsOf(delivery), awayIfForced(options))
      : undefined;
}

// The agent's pane and process for the reply sink's message (loaded only when there is one).
async function replyGate(deliveries: readonly RoutedDelivery[], options: DeliverOptions) {
  if (!deliveries.some((delivery) => delivery.entry.name === options.replySink)) return undefined;
  const { presenceGate } = await import("../presence/gate-env.js");
  return presenceGate(options.deps, DEFAULT_IDLE_SECONDS);
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

function awayIfForced(options: DeliverOptions): "away" | undefined {
  return options.forceAway ? "away" : undefined;
}

async function queueRemote(
  deliveries: readonly RoutedDelivery[],
  budget: AbortSignal,
  options: DeliverOptions,
  routed: readonly string[],
): Promise<Outcome[]> {
  if (deliveries.length === 0) return [];
  const { enqueue } = await import("../outbox/store.js");
  const gate = await gateMaker(deliveries, options);
  const replyTo = await replyGate(deliveries, options);
  return handOver(deliveries, budget, options, "queued", (delivery, stored) =>
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
async function handOver<D extends RoutedDelivery>(
  deliveries: readonly D[],
  budget: AbortSignal,
  options: DeliverOptions,
  flag: "queued" | "held",
  store: (delivery: D, stored: QueuedDelivery) => Promise<unknown>,
): Promise<Outcome[]> {
  return Promise.all(
    deliveries.map(async (delivery): Promise<Outcome> => {
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
        const outcome = await deliverDirectly(delivery, budget, options);
        return { ...outcome, outboxError: describeFsError(error) };
      }
      return {
        sink: entry.name,
        type: entry.type,
        target: safeTarget(delivery),
        ok: true,
        [flag]: true,
        ms: Math.round(Date.now() - started),
      };
    }),
  );
}

// With no outbox there is no second chance: one attempt now, and the hook says on stderr what
// became of it (commands/run.ts). Retries belong to the worker and its outbox alone.
async function deliverDirectly(
  delivery: RoutedDelivery,
  budget: AbortSignal,
  options: DeliverOptions,
): Promise<Outcome> {
  return { ...withoutRetryable(await deliverOne(delivery, budget, options)), attempts: 1 };
}

// `retryable` steers the retries here; the log line does not need it.
function withoutRetryable(outcome: Outcome & { retryable?: boolean }): Outcome {
  const copy = { ...outcome };
  delete copy.retryable;
  return copy;
}

function describeFsError(error: unknown): string {
  const { code, path } = error as NodeJS.ErrnoException;
  return `${code ?? "error"}${path ? ` at ${path}` : ""}`;
}

async function deliverOne(
  delivery: RoutedDelivery,
  budget: AbortSignal,
  options: DeliverOptions,
): Promise<Outcome & { retryable?: boolean }> {
  const { entry, sink, notification } = delivery;
  const started = Date.now();
  const outcome: Outcome & { retryable?: boolean } = {
    sink: entry.name,
    type: entry.type,
    target: safeTarget(delivery),
    ok: true,
    ms: 0,
  };
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
    if (report?.started) outcome.started = true;
    if (report?.via) outcome.via = scrub(report.via, options.secrets);
    if (report?.action) outcome.action = scrub(report.action, options.secrets);
  } catch (error) {
    const known = toHookNotifyError(error);
    outcome.ok = false;
    outcome.retryable = known.retryable;
    outcome.code = known.code;
    if (known.status !== undefined) outcome.status = known.status;
    outcome.error = scrub(known.message, options.secrets);
  }
  outcome.ms = Math.round(Date.now() - started);
  return outcome;
}

function safeTarget(delivery: RoutedDelivery): string {
  try {
    return delivery.sink.describeTarget(delivery.entry.options);
  } catch {
    return delivery.entry.type;
  }
}
