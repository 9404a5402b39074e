// One send now, for a run (the hook's local sinks, --wait, test, or a delivery the outbox could
// not take), through the one send (send.ts), as the run's attempt (journal/line.ts RunAttempt).
import { toHookNotifyError } from "../errors.js";
import type { RunAttempt } from "../journal/run-attempt.js";
import { scrub } from "../redact.js";
import type { DispatchOptions } from "./dispatch.js";
import type { RoutedDelivery } from "./plan.js";
import { send } from "./send.js";

/** What a send now can become. */
export type Sent = Extract<RunAttempt, { outcome: "delivered" | "started" | "failed" }>;

export async function sendHere(
  delivery: RoutedDelivery,
  budget: AbortSignal,
  options: DispatchOptions,
): Promise<Sent> {
  const { entry, sink, notification } = delivery;
  const { deps, wait, secrets } = options;
  const started = Date.now();
  const base = { sink: entry.name, type: entry.type, target: safeTarget(delivery) };
  const ms = () => Math.round(Date.now() - started);
  try {
    const { options: sinkOptions, name: sinkName, timeoutMs } = entry;
    const request = { sink, options: sinkOptions, notification, sinkName, timeoutMs };
    const report = await send({ ...request, deps, wait, signal: budget, secrets });
    const shown = {
      ...(report?.via ? { via: scrub(report.via, secrets) } : {}),
      ...(report?.action ? { action: scrub(report.action, secrets) } : {}),
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
      error: scrub(known.message, secrets),
      ...(known.status === undefined ? {} : { status: known.status }),
    };
  }
}

export function safeTarget(delivery: RoutedDelivery): string {
  try {
    return delivery.sink.describeTarget(delivery.entry.options);
  } catch {
    return delivery.entry.type;
  }
}
