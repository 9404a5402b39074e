// What a sink learns about a notification after handing it over; sinks report it, the outbox's
// journal records it (delivery/receipts.ts) and `hook-notify log` shows it.
import type { Notification } from "./notification.js";

/** One thing a sink learned about a notification it handed over, for the log's receipt. */
export interface ReceiptEvent {
  /** "unknown": how it ended could not be learnt (the reason says why); "expired": a service's
   * receipt window ended unacknowledged. */
  state: "shown" | "clicked" | "closed" | "unknown" | "acknowledged" | "expired";
  /** The id the platform or service gave the notification (the daemon's id, a message id). */
  id?: string | undefined;
  /** Why it ended ("expired", "dismissed"), what a click brought back, or why it is unknown. */
  reason?: string | undefined;
  /** Acknowledged or expired: when, as the service says it (ISO time). */
  at?: string | undefined;
  /** Acknowledged: by which device or user, as the service says it (made inert when recorded). */
  by?: string | undefined;
}

/** How long a sent message can be asked about, and how often (a receipt the person answers). */
export interface ReceiptWindow {
  /** The first look, in seconds after sending. */
  firstSeconds: number;
  /** Then one look every this many seconds (never more often than the service allows). */
  everySeconds: number;
  /** After this many seconds the service says no more than "expired": the last look. */
  forSeconds: number;
}

/** A sent message a sink is asked about: its id at the service, and the notification it carried. */
export interface SentMessage {
  messageId: string;
  notification: Notification;
}

/** What a look at a message's receipt found. */
export type ReceiptAnswer =
  | { state: "waiting" }
  /** `at`: when (ISO time); `by`: the device or user that acknowledged, as the service says. */
  | { state: "acknowledged"; at?: string | undefined; by?: string | undefined }
  | { state: "expired"; at?: string | undefined };
