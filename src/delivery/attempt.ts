// What became of one outbox entry in one step of the worker: one discriminated union, and the
// log line it is (toJournalLine). `flush` prints it; the drain counts it.
import type { OutboxLine } from "../journal/line.js";
import type { PresenceBrief } from "../journal/run-attempt.js";

interface AttemptBase {
  key: string;
  sink: string;
  /** The notification's id. */
  id: string;
  attempts: number;
  /** A fallback: the sink that gave up on this notification first. */
  fallbackOf?: string | undefined;
  /** A follow-up: the notification it chases. */
  of?: string | undefined;
  presence?: PresenceBrief | undefined;
}

export type Attempt =
  | (AttemptBase & { outcome: "delivered"; messageId?: string | undefined })
  | (AttemptBase & { outcome: "retry"; code: string; message: string; notBefore: number })
  | (AttemptBase & {
      outcome: "failed";
      code: string;
      message: string;
      /** The fallbacks the notification was handed to now. */
      fallback?: string[] | undefined;
      /** The fallbacks not handed it because they already have it. */
      fallbackSkipped?: string[] | undefined;
    })
  /** skipped: "when": "away" and the person is there; cancelled: the session was answered. */
  | (AttemptBase & { outcome: "skipped" | "cancelled"; rule: string; message: string })
  /** A digest sink while the person is away: kept for the digest (delivery/digest.ts). */
  | (AttemptBase & { outcome: "held"; message: string })
  /** A look at a sent message's receipt (delivery/receipt-watch.ts), not a delivery. */
  | (AttemptBase & { outcome: "watched"; message: string; notBefore?: number | undefined })
  /** Not tried: another entry for the same target just found it down; due again with its next
   * try. The drain logs one line per target ("N waiting for <sink>"), not one per entry. */
  | (AttemptBase & { outcome: "waiting"; target: string; message: string; notBefore: number });

// The attempt as its log line; undefined for those logged otherwise (held: the digest's line;
// watched: the receipt's; waiting: the drain's line per target).
export function toJournalLine(attempt: Attempt): OutboxLine | undefined {
  const { key, sink, id, attempts, fallbackOf, of, presence } = attempt;
  const base = { sink, id, key, attempts, ...(fallbackOf === undefined ? {} : { fallbackOf }) };
  // What the gate said, and the notification a follow-up chases: on the lines of a decision.
  const decided = {
    ...base,
    ...(presence === undefined ? {} : { presence }),
    ...(of === undefined ? {} : { of }),
  };
  switch (attempt.outcome) {
    case "delivered":
      return {
        outbox: "delivered",
        ...decided,
        ...(attempt.messageId === undefined ? {} : { messageId: attempt.messageId }),
      };
    case "retry":
      return {
        outbox: "retry",
        ...base,
        code: attempt.code,
        message: attempt.message,
        notBefore: new Date(attempt.notBefore).toISOString(),
      };
    case "failed":
      return {
        outbox: "failed",
        ...base,
        code: attempt.code,
        message: attempt.message,
        ...(attempt.fallback === undefined ? {} : { fallback: attempt.fallback }),
        ...(attempt.fallbackSkipped === undefined
          ? {}
          : { fallbackSkipped: attempt.fallbackSkipped }),
      };
    case "skipped":
    case "cancelled":
      return { outbox: attempt.outcome, ...decided, rule: attempt.rule, message: attempt.message };
    case "held":
    case "watched":
    case "waiting":
      return undefined;
  }
}
