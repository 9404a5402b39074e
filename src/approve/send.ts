// Sends the question to the phone under its own time limit inside the run's deadline; the outcome
// (sink, target without secrets, ok or why not, time taken) goes in the record either way.
import { deadline } from "../abort.js";
import { APPROVE_PUBLISH_TIMEOUT_MS } from "../core/defaults.js";
import type { Deps } from "../deps.js";
import { toHookNotifyError, type ErrorCode, type HookNotifyError } from "../errors.js";
import type { RunAttempt } from "../journal/run-attempt.js";
import type { Answer } from "./answer.js";
import type { ApproveRecord } from "./record.js";
import type { ApproveSetup } from "./setup.js";

/** Said when the run's deadline cut a stage short: the terminal asks, nothing is retried. */
export const TIME_UP =
  "time was up before the phone answered (the wait ends at approveSeconds, or --timeout less 5 s): the terminal asks";

/** Who answered, as far as the channel tells: the Telegram user who pressed or replied. */
export interface Answerer {
  /** desktop: a button on the desktop banner (sinks/banner-actions.ts). */
  via: "ntfy" | "telegram" | "desktop";
  /** Telegram: from.id of the press or the reply (ntfy's reply topic names nobody). */
  user?: number | undefined;
  /** desktop: the program that showed the banner, where it is not the D-Bus notification service. */
  program?: string | undefined;
}

/** Tells the channel the question was answered elsewhere (its buttons go); what it did, in words. */
export type Withdraw = (words: string, signal: AbortSignal) => Promise<string>;

/** How one channel's ask ended: the answer or why none, and when the question was sent. */
export interface PhoneResult {
  result:
    | { answer: Answer; at: number; by: Answerer }
    | { none: string; error?: HookNotifyError | undefined };
  sentAt: number;
  /** Set once the question was sent: takes it back when the banner answered first. */
  withdraw?: Withdraw | undefined;
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
  const base = { sink: setup.sinkName, type: "chat", target };
  const failed = (ms: number, code: ErrorCode, error: string): RunAttempt => {
    return { ...base, outcome: "failed", ok: false, ms, code, error };
  };
  // In the record while it is on its way: a run the deadline cuts short logs it as not sent.
  const at = record.outcomes.push(failed(0, "SINK_TIMEOUT", TIME_UP)) - 1;
  try {
    const sent = await send(timer.signal);
    record.outcomes[at] = { ...base, outcome: "delivered", ok: true, ms: deps.now() - started };
    return { sentAt: deps.now(), sent };
  } catch (error) {
    const known = toHookNotifyError(error);
    const message = signal.aborted ? TIME_UP : known.message;
    record.outcomes[at] = failed(deps.now() - started, known.code, message);
    throw known;
  } finally {
    timer.clear();
  }
}
