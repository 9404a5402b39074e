// The config as the code uses it once validated: plain data, defaults applied.
import type { NoticeEvent } from "./hook-event.js";

/** A title/body pair; either may be left out to keep the default. */
export interface Template {
  title?: string | undefined;
  body?: string | undefined;
}

/** Per-event templates, plus per-level ones that win for their level: "failure", "limit" (a
 * usage limit), "info" (a notice). */
export type Templates = Partial<Record<NoticeEvent | "failure" | "limit" | "info", Template>>;

/** A valid sink entry, defaults applied; `options` has passed the sink's own schema. */
export interface SinkEntry {
  name: string;
  type: string;
  events: NoticeEvent[];
  when: "always" | "failure" | "away";
  /** With when: "away": idle this long counts as away (default DEFAULT_IDLE_SECONDS). */
  idleSeconds?: number | undefined;
  /** Held while away, sent as one digest: "return" (presence back) or "HH:MM" (local time). */
  digest?: string | undefined;
  /** The follow-up chain for what this sink delivered (one step or more, afterSeconds increasing). */
  escalate?: Escalate[] | undefined;
  /** Sinks that get what this one gave up on, once each (validated: known, no cycle). */
  fallback?: string[] | undefined;
  enabled: boolean;
  timeoutMs?: number | undefined;
  quietHours?: string | undefined;
  cooldown?: Cooldowns | undefined;
  minTurnSeconds?: number | undefined;
  localSinksOverSsh?: boolean | undefined;
  coalesceSeconds?: number | undefined;
  options: unknown;
}

/** A follow-up to the `to` sinks when the session is not answered within afterSeconds. */
/** One step of a follow-up chain: afterSeconds counts from the notification. */
export interface Escalate {
  afterSeconds: number;
  to: string[];
  events?: NoticeEvent[] | undefined;
}

/** Cool-down seconds per event kind ("idle_prompt": a Notification that waits for input). */
export type Cooldowns = Partial<Record<NoticeEvent | "idle_prompt", number>>;

/** `service` from the config: the service's HTTP API (enrichment and `hook-notify watch`). */
export interface ServiceConfig {
  baseUrl: string;
  apiKey: string;
  enrich: boolean;
  enrichTimeoutMs: number;
  intervalMs: number;
  /** `hook-notify watch`: only sessions on these computers, or on this host's. */
  computers?: string[] | undefined;
  hostId?: string | undefined;
  /** `hook-notify watch`: credits per UTC day above which it announces once (UsageAlert). */
  alerts?: UsageAlerts | undefined;
}

/** Daily credit thresholds: the whole organisation, and any one user. */
export interface UsageAlerts {
  creditsPerDay?: number | undefined;
  creditsPerUserPerDay?: number | undefined;
}

/** What the system's Do Not Disturb does to local sinks (pipeline/dnd.ts). */
export type DndMode = "respect" | "ignore" | "remote";

export interface Config {
  enabled: boolean;
  sinks: Record<string, SinkEntry>;
  templates?: Templates | undefined;
  maxBodyLength: number;
  allowProjectSinks: boolean;
  dedupeSeconds: number;
  cooldown?: Cooldowns | undefined;
  minTurnSeconds: number;
  quietHours?: string | undefined;
  localSinksOverSsh: boolean;
  dnd: DndMode;
  coalesceSeconds: number;
  /** The follow-up chain for every event that needs you (afterSeconds increasing). */
  escalate?: Escalate[] | undefined;
  /** `hook-notify approve`: "away" (default) or "always"; see the schema. */
  approveWhen: "away" | "always";
  approveSeconds: number;
  approveReplyTopic?: string | undefined;
  approveSink?: string | undefined;
  /** The Telegram sink whose "waiting" messages take a typed reply (src/reply/); unset: off. */
  replySink?: string | undefined;
  replySeconds: number;
  service?: ServiceConfig | undefined;
}
