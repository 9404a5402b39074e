// log.ndjson's lines as runs for `hook-notify log`: run records, each with the outbox worker's
// lines for its queued deliveries (joined by notification id and sink; a coalesced notification's
// lines, and a digest's, join every run it stands for). Pure apart from readRuns.
import { parseLine, stringsOf, type OutboxLine, type RunRecord } from "./line.js";
import { readLogFiles, readTail } from "./read.js";

/** One hook run as logged, with what the worker later did for its queued sinks. */
export interface LoggedRun {
  record: RunRecord;
  /** The run's own line and its journal lines, as written. */
  lines: string[];
  /** The last journal line per sink name (a fallback's under fallbackKey, a follow-up's under followUpKey). */
  journal: Map<string, OutboxLine>;
  /** What the sinks reported after sending (shown, clicked, closed, acknowledged), per sink, in order. */
  receipts: Map<string, OutboxLine[]>;
  /** Per sink: how many SubagentStop runs the coalesced notification it went into stands for. */
  merged: Map<string, number>;
  /** Per sink: the digest (held while away) this run's notification went into. */
  digests?: Map<string, string>;
}

export interface ParsedLog {
  runs: LoggedRun[];
  /** Lines that are not JSON objects of a known shape. */
  corrupt: number;
}

// Splits the log into runs; a journal line joins the run whose notification it delivered.
export function parseLog(text: string | readonly string[]): ParsedLog {
  const lines = typeof text === "string" ? text.split("\n") : text;
  const runs: LoggedRun[] = [];
  // Notification id → the runs it stands for (one, or the parts of a coalesced notification).
  const byId = new Map<string, LoggedRun[]>();
  // Receipts a local sink reported while the hook ran come before the run's own line.
  const early = new Map<string, { line: string; journal: OutboxLine & { sink: string } }[]>();
  let corrupt = 0;
  for (const line of lines) {
    if (line.trim() === "") continue;
    const value = parseLine(line);
    if (value === undefined) corrupt++;
    else if (value.outbox === undefined) {
      const record = value;
      const run: LoggedRun = {
        record,
        lines: [line],
        journal: new Map(),
        receipts: new Map(),
        merged: new Map(),
      };
      runs.push(run);
      if (record.id) byId.set(record.id, [run]);
      for (const { line: earlier, journal } of early.get(record.id ?? "") ?? []) {
        run.lines.push(earlier);
        addReceipt(run, journal.sink, journal);
      }
    } else {
      const journal = value;
      const { sink, id } = journal;
      if (sink === undefined || id === undefined) continue;
      // A follow-up joins the run of the notification nobody answered, under its own name.
      const of = typeof journal.of === "string" ? journal.of : undefined;
      const grouped = journal.outbox === "coalesced" || journal.outbox === "digest";
      const parts = grouped ? stringsOf(journal.parts) : [of ?? id];
      const joined = parts.flatMap((part) => byId.get(part) ?? []);
      if (journal.outbox === "receipt" && joined.length === 0)
        early.set(id, [...(early.get(id) ?? []), { line, journal: { ...journal, sink } }]);
      for (const run of new Set(joined)) {
        run.lines.push(line);
        if (journal.outbox === "receipt") {
          addReceipt(run, sink, journal);
          continue;
        }
        run.journal.set(journalKey(sink, journal, of), journal);
        if (journal.outbox === "coalesced") run.merged.set(sink, parts.length);
        if (journal.outbox === "digest") (run.digests ??= new Map()).set(sink, id);
      }
      if (grouped) byId.set(id, [...(byId.get(id) ?? []), ...joined]);
    }
  }
  return { runs, corrupt };
}

function addReceipt(run: LoggedRun, sink: string, journal: OutboxLine): void {
  run.receipts.set(sink, [...(run.receipts.get(sink) ?? []), journal]);
}

/** Where a sink's follow-up (escalation) journal line is kept in LoggedRun.journal: by the
 * follow-up's own id, so each step of a chain to the same sink keeps its line. */
export function followUpKey(sink: string, id: string): string {
  return `${sink} (follow-up ${id})`;
}

/** Where a sink's fallback delivery (it stood in for another sink) is kept in LoggedRun.journal. */
export function fallbackKey(sink: string): string {
  return `${sink} (fallback)`;
}

function journalKey(sink: string, journal: OutboxLine, of: string | undefined): string {
  if (of) return followUpKey(sink, journal.id ?? "");
  return typeof journal.fallbackOf === "string" ? fallbackKey(sink) : sink;
}

// True when a sink failed (now or later in the worker) and no fallback delivered the
// notification in its place, or the run itself hit an error: what nobody received.
export function hasFailed(run: LoggedRun): boolean {
  // A sink left out of the config (an unset ${VAR}, a broken entry) failed to notify as well.
  if (run.record.error || run.record.issues.length > 0) return true;
  return run.record.outcomes.some((o) => {
    const later = run.journal.get(o.sink);
    const here = o.outcome === "failed" ? o : undefined;
    const fallback = later?.fallback ?? here?.fallback;
    const skipped = later?.fallbackSkipped ?? here?.fallbackSkipped;
    return (!o.ok || later?.outbox === "failed") && !rescuedBy(run, fallback, skipped);
  });
}

// The sink that got the notification in the failed sink's place, if one did: a fallback it was
// handed to, or one of its fallbacks that had it anyway (skipped: one of the notification's own).
export function rescuedBy(
  run: LoggedRun,
  fallback: unknown,
  skipped?: unknown,
): string | undefined {
  return (
    stringsOf(fallback).find(
      (sink) => run.journal.get(fallbackKey(sink))?.outbox === "delivered",
    ) ?? stringsOf(skipped).find((sink) => delivered(run, sink))
  );
}

// The sink's own delivery of the run's notification succeeded (here, or later in the worker).
function delivered(run: LoggedRun, sink: string): boolean {
  const later = run.journal.get(sink);
  if (later) return later.outbox === "delivered";
  const outcome = run.record.outcomes.find((o) => o.sink === sink);
  return outcome?.outcome === "delivered" || outcome?.outcome === "started";
}

// The runs `log` shows: with --failed every run is looked at (the log is bounded: two files of
// MAX_LOG_BYTES at most); otherwise only the end is read, one more run than shown (a receipt a
// local sink reported before its run's line sits just before it). undefined when there is no log.
export function readRuns(
  path: string,
  options: { tail: number; failed: boolean },
): { parsed: ParsedLog; runs: LoggedRun[] } | undefined {
  let lines: string[] | undefined;
  if (options.failed || options.tail <= 0) {
    const text = readLogFiles(path);
    lines = text === undefined ? undefined : text.split("\n");
  } else {
    let seen = 0;
    lines = readTail(path, (line) => isRunLine(line) && ++seen > options.tail);
  }
  if (lines === undefined) return undefined;
  const parsed = parseLog(lines);
  return { parsed, runs: selectRuns(parsed.runs, options) };
}

// Cheaper than parsing: a run's line has no "outbox" key (a message quoting one is escaped).
function isRunLine(line: string): boolean {
  return !line.includes('"outbox":') && line.includes('"outcomes":');
}

// --failed first, then the last `tail` runs.
export function selectRuns(
  runs: readonly LoggedRun[],
  options: { tail: number; failed: boolean },
): LoggedRun[] {
  const kept = options.failed ? runs.filter(hasFailed) : [...runs];
  return options.tail > 0 ? kept.slice(-options.tail) : kept;
}
