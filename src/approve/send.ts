// Sends the question to the phone under its own time limit inside the run's deadline; the outcome
// (sink, target without secrets, ok or why not, time taken) goes in the record either way.
import { deadline } from "../abort.js";
import { APPROVE_PUBLISH_TIMEOUT_MS } from "../core/defaults.js";
import type { Deps } from "../deps.js";
import { toHookNotifyError, type HookNotifyError } from "../errors.js";
import type { Answer } from "./answer.js";
import type { ApproveRecord } from "./record.js";
import type { ApproveSetup } from "./setup.js";

/** Said when the run's deadline cut a stage short: the terminal asks, nothing is retried. */
export const TIME_UP =
  "time was up before the phone answered (the wait ends at approveSeconds, or --timeout less 5 s): the terminal asks";

/** Who answered, as far as the channel tells: the Telegram user who pressed or replied. */
export interface Answerer {
  /** desktop: a button on the Linux banner (sinks/banner-actions.ts). */
  via: "ntfy" | "telegram" | "desktop";
  /** Telegram: from.id of the press or the reply (ntfy's reply topic names nobody). */
  user?: number | undefined;
}

/** How one channel's ask ended: the answer or why none, and when the question was sent. */
export interface PhoneResult {
  result:
    | { answer: Answer; at: number; by: Answerer }
    | { none: string; error?: HookNotifyError | undefined };
  sentAt: number;
}

// Runs `send`; returns when the service accepted the question, with what `send` returned.
export async function sendQuestion<T>(
  question: { setup: ApproveSetup; target: string; record: ApproveRecord },
  deps: Pick<Deps, "now">,
  signal: AbortSignal,
  send: (signal: AbortSignal) => Promise<T>,
): Promise<{ sentAt: number; sent: T }> {
  const started = deps.now();
  const timer = deadline(APPROVE_PUBLISH_TIMEOUT_MS, signal);
  const { setup, target, record } = question;
  const outcome = { sink: setup.sinkName, type: "chat", target, ok: false, ms: 0 };
  record.outcomes.push(outcome);
  try {
    const sent = await send(timer.signal);
    outcome.ok = true;
    return { sentAt: deps.now(), sent };
  } catch (error) {
    const known = toHookNotifyError(error);
    Object.assign(outcome, { code: known.code, error: signal.aborted ? TIME_UP : known.message });
    throw known;
  } finally {
    timer.clear();
    outcome.ms = deps.now() - started;
  }
}
