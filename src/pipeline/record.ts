// Synchronous on purpose: one small append at the end of a short-lived run, and node:fs/promises
// costs the hook ~2 ms to load.
import { appendFileSync, mkdirSync, renameSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { ErrorCode } from "../errors.js";
import { scrubValue } from "../redact.js";
import type { Outcome } from "./deliver.js";
import type { Skip } from "./route.js";

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
  error?: { code: ErrorCode; message: string } | undefined;
}

/** One queued follow-up, as logged. */
export interface EscalationRecord {
  sink: string;
  afterSeconds: number;
  id: string;
}

const MAX_LOG_BYTES = 1024 * 1024;

// A fresh record, stamped with the run's start time.
export function startRecord(now: number): RunRecord {
  return { time: new Date(now).toISOString(), ms: 0, outcomes: [], skipped: [], issues: [] };
}

// Appends the record as one JSON line (secrets masked); rotates the log past 1 MiB. Never throws.
export function writeRecord(record: RunRecord, path: string, secrets: readonly string[]): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    rotateIfLarge(path);
    const line = `${JSON.stringify(scrubValue(record, secrets))}\n`;
    appendFileSync(path, line, { mode: 0o600 });
  } catch {
    // The log is best effort: a full disk must not break the agent.
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
