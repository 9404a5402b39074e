// What a sink learns about a notification after handing it over; sinks report it, the outbox's
// journal records it (outbox/receipts.ts) and `hook-notify log` shows it.

/** One thing a sink learned about a notification it handed over, for the log's receipt. */
export interface ReceiptEvent {
  /** "unknown": how it ended could not be learnt (the reason says why). */
  state: "shown" | "clicked" | "closed" | "unknown" | "acknowledged";
  /** The id the platform or service gave the notification (the daemon's id, a message id). */
  id?: string | undefined;
  /** Why it ended ("expired", "dismissed"), what a click brought back, or why it is unknown. */
  reason?: string | undefined;
}
