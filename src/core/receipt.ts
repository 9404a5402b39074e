// What a sink learns about a notification after handing it over; sinks report it, the outbox's
// journal records it (outbox/receipts.ts) and `hook-notify log` shows it.

/** One thing a sink learned about a notification it handed over, for the log's receipt. */
export interface ReceiptEvent {
  state: "shown" | "clicked" | "dismissed" | "closed" | "acknowledged";
  /** The id the platform or service gave the notification (the daemon's id, a message id). */
  id?: string | undefined;
  /** Why it ended ("expired", "dismissed by the user"), or which action was clicked. */
  reason?: string | undefined;
}
