// What became of one delivery during a run, as its log line holds it (the items of a run's
// `outcomes`): one union, and the reader that takes an earlier version's item into it.
import type { ErrorCode } from "../errors.js";

interface RunAttemptBase {
  sink: string;
  type: string;
  /** Redacted: a host, a program. */
  target: string;
  ms: number;
}

/** What a send made here learned (a local sink, --wait, test, or a direct send with no outbox). */
interface SentHere {
  /** "when": "away", decided here (--wait, test): what the presence probes said. */
  presence?: PresenceBrief | undefined;
  /** The program that showed it, when the sink chose among several (a fallback says why). */
  via?: string | undefined;
  /** Desktop: what a click on the banner brings back, or why it has no action. */
  action?: string | undefined;
  /** Why the outbox could not take it (it was then sent directly, once). */
  outboxError?: string | undefined;
  /** Attempts made here when sent directly (one: retries belong to the outbox). */
  attempts?: number | undefined;
}

/** What became of one delivery during a run: one union, discriminated by `outcome`, and the
 * item of its log line's `outcomes` (the outbox's entries have theirs, delivery/attempt.ts). The
 * flags beside `outcome` (ok, started, queued, held, skipped) are what earlier versions wrote and
 * read: kept, so that a line stays readable both ways. */
export type RunAttempt =
  | (RunAttemptBase & SentHere & { outcome: "delivered"; ok: true })
  /** A local program still running when the hook went on: started, not seen delivered. */
  | (RunAttemptBase & SentHere & { outcome: "started"; ok: true; started: true })
  /** Handed to the outbox and the background worker rather than sent here. */
  | (RunAttemptBase & { outcome: "queued"; ok: true; queued: true })
  /** Held for subagent coalescing: the worker sends it merged with the session's next ones. */
  | (RunAttemptBase & { outcome: "coalesced"; ok: true; held: true })
  /** Not sent on purpose: "when": "away" and the person is there. */
  | (RunAttemptBase & { outcome: "skipped"; ok: true; skipped: string; presence: PresenceBrief })
  | (RunAttemptBase &
      SentHere & {
        outcome: "failed";
        ok: false;
        code: ErrorCode;
        error: string;
        /** The HTTP status a failing server answered with (from the error's data, not its text). */
        status?: number | undefined;
        /** The sinks its `fallback` names, queued to get the notification instead. */
        fallback?: string[] | undefined;
        /** The fallbacks not queued because the notification went to them anyway. */
        fallbackSkipped?: string[] | undefined;
      });

/** The presence answer as logged: no readings' pids, just what decided. */
export interface PresenceBrief {
  state: "present" | "away" | "unknown";
  probe: string;
  detail: string;
  ms: number;
  idleSeconds?: number;
}

// One item of `outcomes`; a line written before `outcome` existed says it by its flags.
export function toRunAttempt(item: unknown): RunAttempt | undefined {
  if (!isObject(item) || typeof item.sink !== "string" || typeof item.ok !== "boolean")
    return undefined;
  const text = (key: string): string => (typeof item[key] === "string" ? item[key] : "");
  const base = {
    ...item,
    sink: item.sink,
    type: text("type"),
    target: text("target"),
    ms: typeof item.ms === "number" ? item.ms : 0,
  };
  if (!item.ok) {
    const code = isCode(item.code) ? item.code : "INTERNAL";
    return { ...base, outcome: "failed", ok: false, code, error: text("error") };
  }
  if (typeof item.skipped === "string" && isPresence(item.presence))
    return {
      ...base,
      outcome: "skipped",
      ok: true,
      skipped: item.skipped,
      presence: item.presence,
    };
  if (item.queued === true) return { ...base, outcome: "queued", ok: true, queued: true };
  if (item.held === true) return { ...base, outcome: "coalesced", ok: true, held: true };
  if (item.started === true) return { ...base, outcome: "started", ok: true, started: true };
  return { ...base, outcome: "delivered", ok: true };
}

// A code this version does not know still reads (a newer version's line); `log` prints it as is.
function isCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && value !== "";
}

function isPresence(value: unknown): value is PresenceBrief {
  return isObject(value) && typeof value.state === "string" && typeof value.probe === "string";
}

/** A JSON object (not an array, not null): what every line and item of the log must be. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
