// The outbox's lines in the run log (log.ndjson): what was delivered, retried, given up, quarantined.
import { appendFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { logPath } from "../config/paths.js";
import type { Deps } from "../deps.js";
import { scrubValue } from "../redact.js";

/** One outbox event in the log; `message` is scrubbed of the config's secrets before writing. */
export interface JournalLine {
  outbox:
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
    | "receipt";
  sink?: string;
  id?: string;
  key?: string;
  code?: string;
  message?: string;
  attempts?: number;
  notBefore?: string;
  [extra: string]: unknown;
}

// Appends one NDJSON line; logging must never break delivery, so failures are swallowed.
export async function writeJournal(deps: Deps, line: JournalLine, secrets: readonly string[] = []) {
  const record = { time: new Date(deps.now()).toISOString(), ...line };
  const text = JSON.stringify(scrubValue(record, secrets));
  try {
    const file = logPath(deps);
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await appendFile(file, `${text}\n`, { mode: 0o600 });
  } catch {
    // best effort: the outbox files themselves are the source of truth
  }
}
