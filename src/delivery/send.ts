// THE send: the one call of a sink's `send`, for the hook's local sinks, `--wait`, `test` and the
// worker's outbox entries alike. One deadline rule: the sink entry's timeoutSeconds, else
// DEFAULT_SINK_TIMEOUT_MS, within the caller's signal (the run's budget, the worker's stop), raced
// so that a sink that ignores its signal still cannot hold its caller past it. What the sink
// learns later (a banner's id, a click, an acknowledgement) goes to the log as receipts.
import { deadline } from "../abort.js";
import type { Notification } from "../core/notification.js";
import { DEFAULT_SINK_TIMEOUT_MS } from "../core/defaults.js";
import type { Deps } from "../deps.js";
import { HookNotifyError } from "../errors.js";
import type { SendReport, Sink } from "../sinks/sink.js";
import { receiptRecorder } from "./receipts.js";

export interface SendRequest {
  sink: Sink<unknown>;
  /** The sink's validated options. */
  options: unknown;
  notification: Notification;
  /** The sink's name in the config. */
  sinkName: string;
  /** The sink entry's timeoutSeconds, in ms, if it sets one. */
  timeoutMs?: number | undefined;
  deps: Deps;
  /** Wait for the sink's result (worker, --wait, test); the hook path only starts programs. */
  wait: boolean;
  /** The caller's bound: the run's budget or the worker's stop. */
  signal: AbortSignal;
  secrets: readonly string[];
  /** The notification a follow-up chases (its receipts answer that one). */
  of?: string | undefined;
}

// Sends once. Resolves with what the sink reported; throws HookNotifyError (SINK_TIMEOUT when
// the deadline passed first).
export async function send(request: SendRequest): Promise<SendReport | undefined> {
  const { sink, sinkName, notification, deps } = request;
  const timeout = deadline(request.timeoutMs ?? DEFAULT_SINK_TIMEOUT_MS, request.signal);
  const target = { sink: sinkName, id: notification.id, of: request.of };
  const receipts = receiptRecorder(deps, target, request.secrets);
  try {
    const report = await raceAbort(
      sink.send(notification, request.options, {
        signal: timeout.signal,
        deps,
        sinkName,
        wait: request.wait,
        receipt: receipts.report,
      }),
      timeout.signal,
      sinkName,
    );
    return report ?? undefined;
  } finally {
    timeout.clear();
  }
}

// A sink that ignores its signal still cannot hold its caller past the deadline.
function raceAbort<T>(work: Promise<T>, signal: AbortSignal, sink: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      reject(
        new HookNotifyError("SINK_TIMEOUT", `${sink}: no answer before the deadline.`, { sink }),
      );
    };
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      signal.removeEventListener("abort", onAbort);
    });
  });
}
