// Prints `hook-notify test` results: a table for people, one JSON object per sink for scripts.
// Targets come from each sink's describeTarget and errors are scrubbed: no secret is printed.
import { formatTable, type Style } from "../style.js";
import { withoutFix } from "../check-result.js";
import { likelyFix } from "./test-fix.js";
import type { TestRow } from "./test-run.js";

/** One sink's result as `test --json` prints it. */
export interface TestReport {
  sink: string;
  /** Absent for a sink left out because a ${VAR} is unset (its entry was not read). */
  type?: string | undefined;
  service?: string | undefined;
  target: string;
  ok: boolean;
  skipped?: string | undefined;
  ms?: number | undefined;
  code?: string | undefined;
  status?: number | undefined;
  error?: string | undefined;
  fix?: string | undefined;
  /** The unset variables that keep this sink out (never their values). */
  unset?: string[] | undefined;
}

// Turns a row into the printed shape, with the likely fix for a failure.
export function toReport(row: TestRow): TestReport {
  const { entry, outcome } = row;
  const service = serviceOf(entry.options);
  const base = { sink: entry.name, type: entry.type, ...(service ? { service } : {}) };
  if (!outcome) return { ...base, target: "", ok: true, skipped: row.skipped ?? "not sent" };
  const report: TestReport = { ...base, target: outcome.target, ok: outcome.ok, ms: outcome.ms };
  if (outcome.outcome === "skipped") return { ...report, skipped: outcome.skipped };
  if (outcome.outcome !== "failed") return report;
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

// A sink the config names but that is left out while a ${VAR} it uses is not set.
export function unsetReport(unset: { sink: string; variables: readonly string[] }): TestReport {
  const names = unset.variables.map((name) => `\${${name}}`).join(", ");
  return {
    sink: unset.sink,
    target: "",
    ok: false,
    skipped: `left out while ${names} is not set`,
    unset: [...unset.variables],
  };
}

// `--json`: one object per line, in config order (sinks left out for an unset ${VAR} last).
export function printJson(reports: readonly TestReport[]): void {
  for (const report of reports) console.log(JSON.stringify(report));
}

// The table, then the failures grouped by their fix: each fix is printed once.
export function printTable(reports: readonly TestReport[], style: Style): void {
  for (const line of resultLines(reports, style)) console.log(line);
}

// printTable's lines (pure, for test/commands/test-report.test.ts).
export function resultLines(reports: readonly TestReport[], style: Style): string[] {
  if (reports.length === 0) return ["No sinks to test."];
  const out: string[] = [];
  const header = ["sink", "type", "target", "result", "ms"].map((h) => style.bold(h));
  const lines = formatTable(
    header,
    reports.map((r) => [
      r.sink,
      r.service ? `${r.type ?? ""} (${r.service})` : (r.type ?? ""),
      r.target,
      resultCell(r, style),
      r.ms === undefined ? "" : String(r.ms),
    ]),
  );
  out.push(...lines);
  const failures = reports.filter((r) => !r.ok && r.skipped === undefined);
  for (const [fix, group] of groupByFix(failures)) {
    out.push("");
    for (const r of group) {
      const error = withoutFix(withoutName(r.error, r.sink) ?? r.code ?? "", fix);
      out.push(`${style.fail(style.failMark)} ${style.bold(r.sink)}: ${error}`);
    }
    if (fix !== "") out.push(`  fix: ${fix}`);
  }
  const sent = reports.filter((r) => r.skipped === undefined).length;
  out.push("");
  out.push(`${sent - failures.length} of ${sent} sinks delivered the test notification.`);
  return out;
}

// Failures in order, those with the same fix together (the fix is then said once).
function groupByFix(failures: readonly TestReport[]): Map<string, TestReport[]> {
  const groups = new Map<string, TestReport[]>();
  for (const r of failures) groups.set(r.fix ?? "", [...(groups.get(r.fix ?? "") ?? []), r]);
  return groups;
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
