// The plan the pipeline ends at, as data: each notification bound for a sink, and those held back
// to be merged. delivery/dispatch.ts acts on it; the pipeline only builds it.
import type { SinkEntry } from "../core/config.js";
import type { Notification } from "../core/notification.js";
import type { Sink } from "../sinks/sink.js";

/** One notification bound for one configured sink. */
export interface RoutedDelivery {
  entry: SinkEntry;
  sink: Sink<unknown>;
  notification: Notification;
}

/** A SubagentStop delivery held back to be merged with the session's next ones (coalescing). */
export interface Held extends RoutedDelivery {
  holdMs: number;
  reason: string;
}
