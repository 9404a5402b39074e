// The only writer of log.ndjson. Synchronous on purpose: one small append at a time, from a
// short-lived hook or from the worker, and node:fs/promises costs the hook ~2 ms to load.
//   - O_NONBLOCK: a FIFO in the log's place (no reader) fails at once instead of blocking the run
//     and its deadline timer; anything but a regular file is refused.
//   - Rotation by size, whoever writes: past MAX_LOG_BYTES the file becomes log.1.ndjson (replacing
//     the one before), so the log and its one rotated file stay under twice that, however long only
//     the worker writes.
//   - A private fallback ($TMPDIR/hook-notify-<uid>/) when the state folder cannot take a run.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { logPath } from "../config/paths.js";
import { MAX_LOG_BYTES } from "../core/defaults.js";
import type { Deps } from "../deps.js";
import { scrubValue } from "../redact.js";
import type { JournalLine, OutboxLine, RunRecord } from "./line.js";

// The rotated file beside the log: log.ndjson → log.1.ndjson.
export function rotatedPath(path: string): string {
  return path.replace(/\.ndjson$/, ".1.ndjson");
}

// Appends one line (secrets masked). Never throws: false when it could not be written.
export function appendJournal(
  path: string,
  line: JournalLine,
  secrets: readonly string[],
): boolean {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    appendText(path, `${JSON.stringify(scrubValue(line, secrets))}\n`, MAX_LOG_BYTES);
    return true;
  } catch {
    // The log is best effort: a full disk must not break the agent or the worker.
    return false;
  }
}

// A run's line, in the log or, when the state folder cannot take it (read-only, full, owned by
// someone else, no HOME), in a private folder in the temp dir. Returns where it went, if anywhere.
export function appendRunSomewhere(
  record: RunRecord,
  path: string,
  secrets: readonly string[],
): string | undefined {
  if (appendJournal(path, record, secrets)) return path;
  const fallback = fallbackLogPath();
  if (fallback && appendJournal(fallback, record, secrets)) return fallback;
  return undefined;
}

// The worker's line about a delivery, stamped with the time; logging never breaks delivery (the
// outbox files themselves are the source of truth).
export function journal(deps: Deps, line: OutboxLine, secrets: readonly string[] = []): void {
  appendJournal(logPath(deps), { time: new Date(deps.now()).toISOString(), ...line }, secrets);
}

// A fresh run record, stamped with the run's start time.
export function startRecord(now: number): RunRecord {
  return { time: new Date(now).toISOString(), ms: 0, outcomes: [], skipped: [], issues: [] };
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

// Appends to a regular file, opened non-blocking; rotates it first when it is over maxBytes.
export function appendText(path: string, text: string, maxBytes: number): void {
  const nonblock = (constants as Partial<typeof constants>).O_NONBLOCK ?? 0;
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | nonblock;
  let fd = openSync(path, flags, 0o600);
  try {
    let info = fstatSync(fd);
    if (info.isFile() && info.size > maxBytes) {
      closeSync(fd);
      rotate(path);
      fd = openSync(path, flags, 0o600);
      info = fstatSync(fd);
    }
    if (!info.isFile()) throw new Error(`${path}: not a regular file`);
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

function rotate(path: string): void {
  try {
    renameSync(path, rotatedPath(path));
  } catch {
    // Another writer rotated it first: the path is a fresh file (or will be, when reopened).
  }
}
