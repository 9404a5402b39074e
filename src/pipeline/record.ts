// Synchronous on purpose: one small append at the end of a short-lived run, and node:fs/promises
// costs the hook ~2 ms to load.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ErrorCode } from "../errors.js";
import { scrubValue } from "../redact.js";
import type { Outcome } from "./deliver.js";
import type { Skip } from "./route.js";
import { MAX_LOG_BYTES } from "../core/defaults.js";

/** One line of log.ndjson: everything one hook run learned. */
export interface RunRecord {
  time: string;
  ms: number;
  client?: string | undefined;
  event?: string | undefined;
  ignored?: string | undefined;
  failure?: boolean | undefined;
  project?: string | undefined;
  session?: string | undefined;
  id?: string | undefined;
  outcomes: Outcome[];
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
}

/** One queued follow-up, as logged. */
export interface EscalationRecord {
  sink: string;
  afterSeconds: number;
  id: string;
}

// A fresh record, stamped with the run's start time.
export function startRecord(now: number): RunRecord {
  return { time: new Date(now).toISOString(), ms: 0, outcomes: [], skipped: [], issues: [] };
}

// Appends the record as one JSON line (secrets masked); rotates the log past 1 MiB. Never throws:
// false when the line could not be written (the caller may leave it elsewhere).
export function writeRecord(record: RunRecord, path: string, secrets: readonly string[]): boolean {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    rotateIfLarge(path);
    appendLine(path, `${JSON.stringify(scrubValue(record, secrets))}\n`);
    return true;
  } catch {
    // The log is best effort: a full disk must not break the agent.
    return false;
  }
}

// Writes the record to the log, or, when the state folder cannot take it (read-only, full, owned
// by someone else, no HOME), to a private folder in the temp dir. Returns where it went, if anywhere.
export function writeRecordSomewhere(
  record: RunRecord,
  path: string,
  secrets: readonly string[],
): string | undefined {
  if (writeRecord(record, path, secrets)) return path;
  const fallback = fallbackLogPath();
  if (fallback && writeRecord(record, fallback, secrets)) return fallback;
  return undefined;
}

// $TMPDIR/hook-notify-<uid>/log.ndjson, in a 0700 folder that must be ours and not a link (a
// shared temp dir is where another user could prepare a trap). Undefined when it is not so.
export function fallbackLogPath(): string | undefined {
  // process.getuid is POSIX only; on Windows the temp dir is per user already.
  const getuid = process.getuid as (() => number) | undefined;
  const uid = getuid?.();
  const dir = join(tmpdir(), `hook-notify-${uid ?? "user"}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch {
    // it exists (checked next), or cannot be made (then the check fails)
  }
  try {
    const info = lstatSync(dir);
    if (!info.isDirectory()) return undefined;
    if (uid !== undefined && (info.uid !== uid || (info.mode & 0o077) !== 0)) return undefined;
    return join(dir, "log.ndjson");
  } catch {
    return undefined;
  }
}

// O_NONBLOCK: a FIFO in the log's place (no reader) fails at once instead of blocking the run and
// its deadline timer; anything but a regular file is refused.
export function appendLine(path: string, line: string): void {
  const nonblock = (constants as Partial<typeof constants>).O_NONBLOCK ?? 0;
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | nonblock;
  const fd = openSync(path, flags, 0o600);
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${path}: not a regular file`);
    writeSync(fd, line);
  } finally {
    closeSync(fd);
  }
}

function rotateIfLarge(path: string): void {
  const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  if (size <= MAX_LOG_BYTES) return;
  try {
    renameSync(path, path.replace(/\.ndjson$/, ".1.ndjson"));
  } catch {
    // Another run rotated it first.
  }
}
