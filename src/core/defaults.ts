// Every default and limit of hook-notify in one place, each with why it has its value.
// Pure data: this file imports only types from src/core/. The hook run's deadline budget has a
// module of its own, pipeline/deadline.ts, where its numbers and their arithmetic read together.
import type { Cooldowns } from "./config.js";

// Events and config.

/** With "when": "away", idle this long counts as away. */
export const DEFAULT_IDLE_SECONDS = 120;

/** The notification body is cut to this many characters. */
export const DEFAULT_MAX_BODY_LENGTH = 300;

/** The same event from several hook processes within this many seconds notifies once. */
export const DEFAULT_DEDUPE_SECONDS = 5;

/** A Stop notifies only after a turn this long; 0: every Stop. */
export const DEFAULT_MIN_TURN_SECONDS = 0;

/** The worker waits this long for the service's session before it sends without it. */
export const DEFAULT_ENRICH_TIMEOUT_SECONDS = 3;

/** `hook-notify watch` polls the service this often. */
export const DEFAULT_INTERVAL_SECONDS = 60;

/** SubagentStop events of one session this close together become one notification. */
export const DEFAULT_COALESCE_SECONDS = 3;

/** A usage limit notifies once per reset window; when the event does not say when it resets, once
 * in this long per session: Claude's shortest usage window (five hours). */
export const DEFAULT_LIMIT_WINDOW_SECONDS = 5 * 3600;

/** A usage limit whose reset is known is remembered this long at most (past the weekly window). */
export const MAX_LIMIT_WINDOW_SECONDS = 8 * 86_400;

/** How long `hook-notify approve` waits for the phone by default. */
export const DEFAULT_APPROVE_SECONDS = 120;
/** How long a typed reply to a "waiting for you" message is accepted (src/reply/PROTOCOL.md). */
export const DEFAULT_REPLY_SECONDS = 600;

/** With no `cooldown` setting: idle prompts ("waiting for your input") once a minute per session. */
export const DEFAULT_COOLDOWNS: Cooldowns = { idle_prompt: 60 };

/**
 * `hook-notify approve`: idle this long counts as away even with the terminal in front: a person who watched the agent
 * for five minutes without touching anything is probably not there.
 */
export const AWAY_IDLE_SECONDS = 300;

/** `hook-notify approve` answers this long before the client's timeout ends the hook. */
export const APPROVE_EXIT_MARGIN_MS = 5_000;

/** `hook-notify approve`: publishing the question to the phone gets this long. */
export const APPROVE_PUBLISH_TIMEOUT_MS = 15_000;

/** `hook-notify approve`: the presence probes get at least this long (PowerShell starts slowly). */
export const APPROVE_PRESENCE_TIMEOUT_MS = 6_000;

/** Without --timeout, the wait for "Let it retry" is at most this: auto mode waits meanwhile. */
export const RETRY_WAIT_SECONDS = 30;

/** The timeout install --approve --retry gives its PermissionDenied entry: the wait (the entry's
 * timeout less the exit margin) is then RETRY_WAIT_SECONDS, no longer than the agent should wait. */
export const RETRY_ENTRY_SECONDS = RETRY_WAIT_SECONDS + APPROVE_EXIT_MARGIN_MS / 1000;

// Input limits.

/** A hook event on stdin is a few KiB; past this it is refused (INPUT_TOO_LARGE). */
export const MAX_EVENT_BYTES = 1 << 20;

/** The agent's last message is kept this long (chat shows more of it than the body). */
export const LAST_MESSAGE_MAX = 2000;

/** A config file is a few KiB; past this it is refused, whatever it is. */
export const MAX_CONFIG_BYTES = 1 << 20;

/** More sinks than this are not read: every hook run's work stays bounded (and its deadline held). */
export const MAX_SINKS = 100;

/** Deeper than this, a value in the event is cut: JSON.stringify and the sinks recurse. */
export const MAX_EVENT_DEPTH = 64;

// Hook path and log.

/** Every send (delivery/send.ts), per attempt, unless the sink entry sets timeoutSeconds, within
 * the caller's own bound (the hook's budget, the worker's stop); Standard Webhooks suggests 15-30 s. */
export const DEFAULT_SINK_TIMEOUT_MS = 15_000;

/** The log rotates past this size. */
export const MAX_LOG_BYTES = 1024 * 1024;

// Outbox and worker.

/** A coalesced group goes out at the latest this long after its first SubagentStop. */
export const MAX_HOLD_MS = 60_000;

/** An entry holds one notification (its body already cut to maxBodyLength): a few KiB. */
export const MAX_ENTRY_BYTES = 256 * 1024;

/** The outbox lock: past this, a lock without a heartbeat is stale even if its pid looks alive (pid reuse). */
export const STALE_MS = 60_000;

// Presence and service.

/** A presence probe program gets this long unless it says otherwise (PowerShell starts slowly). */
export const PROBE_TIMEOUT_MS = 1000;

/** At most this many pages per walk, so a service that always says "more" cannot loop forever. */
export const MAX_PAGES = 50;

/** `hook-notify watch`: failed polls back off exponentially up to this. */
export const MAX_BACKOFF_MS = 15 * 60_000;

/** The skip reason of a sink with "events": [], which only stands in for others (`fallback`). */
export const FALLBACK_ONLY = "a fallback only (events: [])";

/** A config file's problems are announced once per version of the file (pipeline/config-notice.ts):
 * the marker `seen/config-<hash of its text>-<this>` is kept a year. The hook looks for it too. */
export const CONFIG_NOTICE_KEEP_SECONDS = 365 * 24 * 3600;
