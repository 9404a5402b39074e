// The domain type every later step works on: one hook event, camelCase, client-neutral.

/** The events hook-notify notifies on by default: needs-you, done, session end, failure, and an
 * action the client's permission check blocked (Claude Code's auto mode). */
export const DEFAULT_EVENTS = [
  "Notification",
  "Stop",
  "SubagentStop",
  "SessionEnd",
  "StopFailure",
  "PermissionDenied",
] as const;

/** The events `hook-notify test` can send: the default ones; StopFailure is `--event Stop --failure`. */
export const TEST_EVENTS = ["Notification", "Stop", "SubagentStop", "SessionEnd"] as const;

/** hook-notify's own events, which no client's hook fires: AgentNotify is the agent asking for
 * the person itself, through `hook-notify mcp`'s notify tool. */
export const OWN_EVENTS = ["AgentNotify"] as const;

/** The events a sink without `events` notifies on: the default hook events and our own. */
export const SINK_DEFAULT_EVENTS = [...DEFAULT_EVENTS, ...OWN_EVENTS] as const;

/** The levels the notify tool takes (AgentNotify's `level`). */
export const AGENT_NOTIFY_LEVELS = ["info", "needs-you", "failure"] as const;

/** Every event hook-notify understands; anything else is recorded and ignored. */
export const KNOWN_EVENTS = [...DEFAULT_EVENTS, "PermissionRequest", ...OWN_EVENTS] as const;

export type EventName = (typeof KNOWN_EVENTS)[number];

/** What `hook-notify watch` announces from the service; no hook fires these. */
export const WATCH_EVENTS = [
  "SessionIdle",
  "ComputerError",
  "ComputerRecovered",
  "ControlsChanged",
  "DailyDigest",
  "UsageAlert",
] as const;

export type WatchEventName = (typeof WATCH_EVENTS)[number];

/** Every event a notification (and a sink's `events`, a template, a cool-down) can name. */
export const NOTICE_EVENTS = [...KNOWN_EVENTS, ...WATCH_EVENTS] as const;

export type NoticeEvent = EventName | WatchEventName;

/** An agent client's id: one adapter of the registry (src/clients/index.ts) has it. */
export type Client = string;

export interface HookEvent {
  name: EventName;
  /** The client, when --client said so or only one client sends such a payload. */
  client?: Client | undefined;
  sessionId?: string | undefined;
  transcriptPath?: string | undefined;
  cwd?: string | undefined;
  permissionMode?: string | undefined;
  /** Notification text, e.g. "Claude needs your permission". */
  message?: string | undefined;
  /** Notification title (Claude Code sends one sometimes). */
  title?: string | undefined;
  notificationType?: string | undefined;
  /** SessionEnd reason: clear, logout, prompt_input_exit, other, error, ... */
  reason?: string | undefined;
  lastAssistantMessage?: string | undefined;
  agentId?: string | undefined;
  agentType?: string | undefined;
  agentTranscriptPath?: string | undefined;
  /** StopFailure error type (rate_limit, overloaded, ...). */
  error?: string | undefined;
  errorDetails?: string | undefined;
  /** StopFailure: an HTTP Retry-After in seconds, when the client passed one on. */
  retryAfterSeconds?: number | undefined;
  /** PermissionRequest and PermissionDenied tool. */
  toolName?: string | undefined;
  sessionDurationMs?: number | undefined;
  messageCount?: number | undefined;
  stopHookActive?: boolean | undefined;
  /** Fields of the wrong type that were left out, and values cut for depth: "field: why". */
  dropped?: string[] | undefined;
  /** The hook input as received, unknown keys included (cut at MAX_EVENT_DEPTH levels). */
  raw: Record<string, unknown>;
}

/** An event name hook-notify does not handle: recorded in the log, nothing else. */
export interface IgnoredEvent {
  ignored: string;
}

// True for a SessionEnd with reason error/other, for StopFailure, and for an AgentNotify the
// agent sent as a failure.
export function isFailure(event: HookEvent): boolean {
  if (event.name === "StopFailure") return true;
  if (event.name === "AgentNotify") return event.raw["level"] === "failure";
  return event.name === "SessionEnd" && (event.reason === "error" || event.reason === "other");
}
