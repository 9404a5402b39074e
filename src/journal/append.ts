// The only writer of log.ndjson. Synchronous on purpose: one small append at a time, from a
// short-lived hook or from the worker, and node:fs/promises costs the hook ~2 ms to load.
//   - Each line is appended to a regular file only, non-blocking, rotated by size whoever writes
//     (append-file.ts).
//   - A private fallback ($TMPDIR/hook-notify-<uid>/) when the state folder cannot take a run.
import { lstatSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { logPath } from "../config/paths.js";
import { MAX_LOG_BYTES } from "../core/defaults.js";
import type { Deps } from "../deps.js";
import { scrubValue } from "../redact.js";
import type { JournalLine, OutboxLine, RunRecord } from "./line.js";
import { appendText } from "./append-file.js";

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
  const dir = join(process.getBuiltinModule("node:os").tmpdir(), `hook-notify-${uid ?? "user"}`);
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
