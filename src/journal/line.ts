// The lines of log.ndjson, one union: a run record (what one hook run, `test`, `approve` or a
// `watch` announcement learned) or an outbox line (what the worker later did for a delivery). The
// format is what earlier versions wrote: a line with an `outbox` field is an outbox line, any other
// object with `time` and `outcomes` is a run. parseLine checks a line into the union, no cast.
import type { ErrorCode } from "../errors.js";
import { isObject, toRunAttempt, type RunAttempt } from "./run-attempt.js";

/** A delivery a noise rule or the route left out. */
export interface Skip {
  sink: string;
  reason: string;
  /** Set when a noise rule (policy.ts) held the delivery back: dedupe, cooldown, ssh, … */
  rule?: string | undefined;
}

/** One queued follow-up, as logged. */
export interface EscalationRecord {
  sink: string;
  afterSeconds: number;
  id: string;
}

/** What became of a permission request (approve runs), as `log` shows it. */
export interface LoggedApproval {
  request: string;
  tool?: string | undefined;
  summary?: string | undefined;
  route: "phone" | "terminal";
  why: string;
  result: "allowed" | "denied" | "answered" | "terminal";
  answeredBy?: "phone" | "desktop" | undefined;
  answeredAt?: string | undefined;
  answer?: string | undefined;
  reason?: string | undefined;
  granted?: string | undefined;
  chosen?: string | undefined;
  via?: string | undefined;
  user?: number | undefined;
  waitedMs?: number | undefined;
  fallback?: string | undefined;
  rejected: { reason: string; message: string }[];
  told?: false | undefined;
  sample?: boolean | undefined;
  /** The program of the banner that answered (terminal-notifier, powershell.exe). */
  program?: string | undefined;
  /** Why a question was not asked on the desktop banner. */
  banner?: string | undefined;
}

/** One run: everything one hook run learned. */
export interface RunRecord {
  /** Absent on a run: what tells it from an outbox line. */
  outbox?: undefined;
  time: string;
  ms: number;
  client?: string | undefined;
  event?: string | undefined;
  ignored?: string | undefined;
  failure?: boolean | undefined;
  project?: string | undefined;
  session?: string | undefined;
  id?: string | undefined;
  outcomes: RunAttempt[];
  skipped: Skip[];
  /** Follow-ups queued: each goes out after afterSeconds unless the session is answered first. */
  escalations?: EscalationRecord[] | undefined;
  /** Config problems: broken entries that were left out. */
  issues: string[];
  /** Worth knowing, and no problem: a notification_type seen for the first time. */
  notes?: string[] | undefined;
  error?: { code: ErrorCode; message: string } | undefined;
  /** "worker": a hook handed the event to a worker, which ran it (src/link/PROTOCOL.md);
   * "test": `hook-notify test` sent a sample. */
  via?: "worker" | "test" | undefined;
  /** What the system's Do Not Disturb read said, when a delivery depended on it (pipeline/dnd.ts). */
  dnd?: string | undefined;
  /** Why the hook ran the event itself instead of handing it over (link/hand-over.ts). */
  kept?: string | undefined;
  /** An approve run: what became of the permission request. */
  approval?: LoggedApproval | undefined;
}

/** What the worker did for a delivery. */
export type OutboxFate =
  | "delivered"
  | "retry"
  | "failed"
  | "quarantined"
  | "worker"
  | "coalesced"
  | "held"
  | "digest"
  | "skipped"
  | "cancelled"
  | "receipt"
  | "waiting";

/** One outbox event in the log; `message` is scrubbed of the config's secrets before writing. */
export interface OutboxLine {
  outbox: OutboxFate;
  time?: string;
  sink?: string;
  id?: string;
  key?: string;
  code?: string;
  message?: string;
  attempts?: number;
  notBefore?: string;
  [extra: string]: unknown;
}

/** One line of log.ndjson. */
export type JournalLine = RunRecord | OutboxLine;

const FATES = new Set<string>([
  "delivered",
  "retry",
  "failed",
  "quarantined",
  "worker",
  "coalesced",
  "held",
  "digest",
  "skipped",
  "cancelled",
  "receipt",
  "waiting",
]);

// One line checked into the union; undefined for a line that is not JSON or not of a known shape
// (a torn write, a hand edit, a newer version's line). An outbox fate this version does not know
// reads as a line it cannot place, so `log` counts it as unreadable rather than misreading it.
export function parseLine(text: string): JournalLine | undefined {
  const value = parseObject(text);
  if (!value) return undefined;
  if (typeof value.outbox === "string")
    return FATES.has(value.outbox) ? toOutbox(value) : undefined;
  if (value.outbox !== undefined) return undefined;
  if (typeof value.time !== "string" || !Array.isArray(value.outcomes)) return undefined;
  return toRecord(value, value.time, value.outcomes);
}

function toOutbox(value: Record<string, unknown>): OutboxLine | undefined {
  const { outbox } = value;
  if (typeof outbox !== "string" || !isFate(outbox)) return undefined;
  const text = (key: string): string | undefined =>
    typeof value[key] === "string" ? value[key] : undefined;
  const line: OutboxLine = { ...value, outbox };
  for (const key of ["sink", "id", "key", "code", "message", "notBefore", "time"] as const) {
    const known = text(key);
    if (known === undefined) Reflect.deleteProperty(line, key);
    else line[key] = known;
  }
  if (typeof line.attempts !== "number") Reflect.deleteProperty(line, "attempts");
  return line;
}

function isFate(text: string): text is OutboxFate {
  return FATES.has(text);
}

// Hand-edited or older lines may lack a list or hold odd items: keep only what has its shape.
function toRecord(value: Record<string, unknown>, time: string, outcomes: unknown[]): RunRecord {
  const text = (key: string): string | undefined =>
    typeof value[key] === "string" ? value[key] : undefined;
  const via = value.via === "worker" || value.via === "test" ? value.via : undefined;
  return {
    time,
    ms: typeof value.ms === "number" ? value.ms : 0,
    client: text("client"),
    event: text("event"),
    ignored: text("ignored"),
    failure: value.failure === true ? true : undefined,
    project: text("project"),
    session: text("session"),
    id: text("id"),
    outcomes: outcomes.map(toRunAttempt).filter((item) => item !== undefined),
    skipped: listOf(value.skipped).filter(isSkip),
    escalations: Array.isArray(value.escalations)
      ? listOf(value.escalations).filter(isEscalation)
      : undefined,
    issues: stringsOf(value.issues),
    notes: value.notes === undefined ? undefined : stringsOf(value.notes),
    error: isError(value.error) ? value.error : undefined,
    via,
    dnd: text("dnd"),
    kept: text("kept"),
    approval: isApproval(value.approval) ? value.approval : undefined,
  };
}

function isSkip(item: unknown): item is Skip {
  return isObject(item) && typeof item.sink === "string" && typeof item.reason === "string";
}

function isEscalation(item: unknown): item is EscalationRecord {
  return isObject(item) && typeof item.sink === "string" && typeof item.id === "string";
}

function isError(item: unknown): item is { code: ErrorCode; message: string } {
  return isObject(item) && typeof item.code === "string" && typeof item.message === "string";
}

function isApproval(item: unknown): item is LoggedApproval {
  return isObject(item) && typeof item.result === "string" && Array.isArray(item.rejected);
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

export function stringsOf(value: unknown): string[] {
  return listOf(value).filter((item): item is string => typeof item === "string");
}

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
