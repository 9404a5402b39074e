import type { Client, NoticeEvent } from "./hook-event.js";

/** What kind of moment this is; drives sound, colours, urgency, priority and escalation:
 * "attention" needs you, "done" a finished turn or session, "failure" something broke, "info" a
 * notice (a quiet banner, never escalated), "limit" a usage limit (with when it resets). Which
 * notification_type has which: message/notification-types.ts; docs/levels.md. */
export type Level = "attention" | "done" | "failure" | "info" | "limit";

/** Levels that make no sound of their own: no shipped sound file, no terminal bell, a low or
 * normal banner. A notice says something happened; a usage limit says when it lifts. */
export const QUIET_LEVELS: readonly Level[] = ["info", "limit"];

/** A rendered notification: what every sink receives. Plain data, safe to serialise. */
export interface Notification {
  /** Stable id of this notification (the same on every retry of every sink). */
  id: string;
  event: NoticeEvent;
  failure: boolean;
  level: Level;
  title: string;
  body: string;
  /** Project name: git root or cwd basename. */
  project: string;
  client?: Client | undefined;
  cwd?: string | undefined;
  sessionId?: string | undefined;
  sessionTitle?: string | undefined;
  /** Notification text from the client, or the default text. */
  message?: string | undefined;
  lastMessage?: string | undefined;
  reason?: string | undefined;
  agentType?: string | undefined;
  durationMs?: number | undefined;
  messageCount?: number | undefined;
  /** A usage limit: when it resets (ISO-8601), when the event said. */
  resetsAt?: string | undefined;
  /** Token usage of the session, from the service (enrichment in the background worker). */
  tokenUsage?: TokenUsage | undefined;
  /** ISO-8601 time the hook ran. */
  timestamp: string;
  /** The hook input as received (for a coalesced notification: the last part's). */
  raw: Record<string, unknown>;
  /** Set on an escalation's follow-up: the notification nobody answered, and the wait. */
  followUp?: { of: string; afterSeconds: number; label: string } | undefined;
  /** Set when several SubagentStop events were merged into this one: each part, in order. */
  coalesced?: CoalescedPart[] | undefined;
  /** Set on a digest (held while away, sent on return): the notifications it stands for. */
  digest?: DigestPart[] | undefined;
}

/** One notification a digest stands for. */
export interface DigestPart {
  id: string;
  event: string;
  timestamp: string;
  sessionId?: string | undefined;
}

/** One SubagentStop that a coalesced notification stands for. */
export interface CoalescedPart {
  id: string;
  timestamp: string;
  agentType?: string | undefined;
  lastMessage?: string | undefined;
}

/** A session's token usage as the service reports it (sessionSettings.tokenUsage). */
export interface TokenUsage {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  cacheReadTokens?: number | undefined;
  cacheCreationTokens?: number | undefined;
  thinkingTokens?: number | undefined;
  serviceCredits?: number | undefined;
}
