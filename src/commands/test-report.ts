// Prints `hook-notify test` results: a table for people, one JSON object per sink for scripts.
// Targets come from each sink's describeTarget and errors are scrubbed: no secret is printed.
import { formatTable, type Style } from "../style.js";
import { likelyFix } from "./test-fix.js";
import type { TestRow } from "./test-run.js";

/** One sink's result as `test --json` prints it. */
export interface TestReport {
  sink: string;
  type: string;
  service?: string | undefined;
  target: string;
  ok: boolean;
  skipped?: string | undefined;
  ms?: number | undefined;
  code?: string | undefined;
  status?: number | undefined;
  error?: string | undefined;
  fix?: string | undefined;
}

// Turns a row into the printed shape, with the likely fix for a failure.
export function toReport(row: TestRow): TestReport {
  const { entry, outcome } = row;
  const service = serviceOf(entry.options);
  const base = { sink: entry.name, type: entry.type, ...(service ? { service } : {}) };
  if (!outcome) return { ...base, target: "", ok: true, skipped: row.skipped ?? "not sent" };
  const report: TestReport = { ...base, target: outcome.target, ok: outcome.ok, ms: outcome.ms };
  if (outcome.skipped) return { ...report, skipped: outcome.skipped };
  if (outcome.ok) return report;
  const { code, status } = outcome;
  const error = sentOnce(outcome.error);
  return {
    ...report,
    code,
    ...(status === undefined ? {} : { status }),
    error,
    fix: likelyFix({ type: entry.type, service, code, status, error }),
  };
}

// `--json`: one object per line, in config order.
export function printJson(rows: readonly TestRow[]): void {
  for (const row of rows) console.log(JSON.stringify(toReport(row)));
}

// The table, then one block per failure: the error and the likely fix.
export function printTable(rows: readonly TestRow[], style: Style): void {
  if (rows.length === 0) {
    console.log("No sinks to test.");
    return;
  }
  const reports = rows.map(toReport);
  const header = ["sink", "type", "target", "result", "ms"].map((h) => style.bold(h));
  const lines = formatTable(
    header,
    reports.map((r) => [
      r.sink,
      r.service ? `${r.type} (${r.service})` : r.type,
      r.target,
      resultCell(r, style),
      r.ms === undefined ? "" : String(r.ms),
    ]),
  );
  for (const line of lines) console.log(line);
  const failures = reports.filter((r) => !r.ok);
  for (const r of failures) {
    console.log("");
    console.log(
      `${style.fail(style.failMark)} ${style.bold(r.sink)}: ${withoutName(r.error, r.sink) ?? r.code ?? ""}`,
    );
    console.log(`  fix: ${r.fix ?? ""}`);
  }
  const sent = reports.filter((r) => r.skipped === undefined).length;
  console.log("");
  console.log(`${sent - failures.length} of ${sent} sinks delivered the test notification.`);
}

function resultCell(report: TestReport, style: Style): string {
  if (report.skipped !== undefined) return style.dim(`skipped: ${report.skipped}`);
  if (report.ok) return style.ok(style.okMark);
  const status = report.status === undefined ? "" : ` ${report.status}`;
  return style.fail(`${style.failMark} ${report.code ?? ""}${status}`);
}

// `test` sends once and queues nothing: a sink's "it will be retried" holds for a hook's delivery.
export function sentOnce(error: string | undefined): string | undefined {
  return error?.replace(/\b([Ii])t will be retried\b( later| in [\d.]+ s)?/, (_all, i: string) =>
    i === "I"
      ? "A hook's delivery would be retried (test sends once)"
      : "a hook's delivery would be retried (test sends once)",
  );
}

// Sink messages start with the sink's name, which the line already shows.
function withoutName(error: string | undefined, sink: string): string | undefined {
  return error?.startsWith(`${sink}: `) ? error.slice(sink.length + 2) : error;
}

function serviceOf(options: unknown): string | undefined {
  if (options && typeof options === "object" && "service" in options) {
    const { service } = options;
    return typeof service === "string" ? service : undefined;
  }
  return undefined;
}
