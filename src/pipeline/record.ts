import { appendFile, mkdir, rename, stat } from "node:fs/promises";
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
  /** Config problems: broken entries that were left out. */
  issues: string[];
  error?: { code: ErrorCode; message: string } | undefined;
}

const MAX_LOG_BYTES = 1024 * 1024;

// A fresh record, stamped with the run's start time.
export function startRecord(now: number): RunRecord {
  return { time: new Date(now).toISOString(), ms: 0, outcomes: [], skipped: [], issues: [] };
}

// Appends the record as one JSON line (secrets masked); rotates the log past 1 MiB. Never throws.
export async function writeRecord(
  record: RunRecord,
  path: string,
  secrets: readonly string[],
): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await rotateIfLarge(path);
    const line = `${JSON.stringify(scrubValue(record, secrets))}\n`;
    await appendFile(path, line, { mode: 0o600 });
  } catch {
    // The log is best effort: a full disk must not break the agent.
  }
}

async function rotateIfLarge(path: string): Promise<void> {
  const size = await stat(path).then(
    (s) => s.size,
    () => 0,
  );
  if (size > MAX_LOG_BYTES)
    await rename(path, path.replace(/\.ndjson$/, ".1.ndjson")).catch(() => undefined);
}
