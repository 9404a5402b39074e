import type { Deps } from "../deps.js";
import { HookNotifyError, toHookNotifyError, type ErrorCode } from "../errors.js";
import { scrub } from "../redact.js";
import type { Delivery } from "./route.js";

/** What happened to one delivery. */
export interface Outcome {
  sink: string;
  type: string;
  /** Redacted: a host, a program. */
  target: string;
  ok: boolean;
  ms: number;
  code?: ErrorCode | undefined;
  error?: string | undefined;
  /** Handed to the outbox and the background worker rather than sent here. */
  queued?: boolean | undefined;
}

export interface DeliverOptions {
  deps: Deps;
  /** Milliseconds left for all deliveries together. */
  budgetMs: number;
  /** Wait for each sink's result (--wait, test); on the hook path local programs are only started. */
  wait: boolean;
  secrets: readonly string[];
}

const DEFAULT_SINK_TIMEOUT_MS = 5000;

// Runs every delivery concurrently under one deadline; one failing sink never stops the others.
export async function deliver(
  deliveries: readonly Delivery[],
  options: DeliverOptions,
): Promise<Outcome[]> {
  const budget = AbortSignal.timeout(Math.max(1, options.budgetMs));
  return Promise.all(deliveries.map((delivery) => deliverOne(delivery, budget, options)));
}

async function deliverOne(
  delivery: Delivery,
  budget: AbortSignal,
  options: DeliverOptions,
): Promise<Outcome> {
  const { entry, sink, notification } = delivery;
  const started = performance.now();
  const outcome: Outcome = {
    sink: entry.name,
    type: entry.type,
    target: safeTarget(delivery),
    ok: true,
    ms: 0,
  };
  const signal = AbortSignal.any([
    budget,
    AbortSignal.timeout(entry.timeoutMs ?? DEFAULT_SINK_TIMEOUT_MS),
  ]);
  try {
    await raceAbort(
      sink.send(notification, entry.options, {
        signal,
        deps: options.deps,
        sinkName: entry.name,
        wait: options.wait,
      }),
      signal,
      entry.name,
    );
  } catch (error) {
    const known = toHookNotifyError(error);
    outcome.ok = false;
    outcome.code = known.code;
    outcome.error = scrub(known.message, options.secrets);
  }
  outcome.ms = Math.round(performance.now() - started);
  return outcome;
}

// A sink that ignores its signal still cannot hold the hook past the deadline.
function raceAbort(work: Promise<void>, signal: AbortSignal, sink: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      reject(toTimeout(sink));
    };
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      signal.removeEventListener("abort", onAbort);
    });
  });
}

function toTimeout(sink: string): HookNotifyError {
  return new HookNotifyError("SINK_TIMEOUT", `${sink}: no answer before the deadline.`, { sink });
}

function safeTarget(delivery: Delivery): string {
  try {
    return delivery.sink.describeTarget(delivery.entry.options);
  } catch {
    return delivery.entry.type;
  }
}
