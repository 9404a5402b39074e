// What hook-notify works out about an event beyond its own fields (gathered in pipeline/).
import type { Client } from "./hook-event.js";
import type { TokenUsage } from "./notification.js";

/** What hook-notify works out about an event beyond its own fields. */
export interface EventContext {
  project: string;
  projectDir: string;
  client?: Client;
  sessionTitle?: string;
  /** From the service, when the background worker enriches a Droid notification. */
  tokenUsage?: TokenUsage;
  lastMessage?: string;
  /** When the turn a Stop ends began (the person's last prompt), if the transcript tells. */
  turnStartedAt?: number;
}
