// `hook-notify usage`'s table of rows for a person: a row per day (week, month, group or user), a
// TOTAL row, and the charts under it (usage-print-charts.ts).
import type { DateRange } from "../service/analytics-api.js";
import { formatTable } from "../style.js";
import { cell } from "./cells.js";
import type { CommandIo } from "./service-command.js";
import { printCharts } from "./usage-print-charts.js";
import { modelsOf, numberKeys, show, totalOf } from "./usage-rows.js";
import type { TableKind, UsageRun } from "./usage-run.js";
import { alignRight, labelOf } from "./usage-table.js";
import { own } from "../own.js";

// The numbers each kind shows in its table (JSON carries every field).
const COLUMNS: Record<TableKind, string[]> = {
  tokens: ["billable_tokens", "input_tokens", "output_tokens", "cache_read_tokens"],
  tools: ["tool_calls", "skills_invocations", "hooks_invocations", "autonomy_ratio_avg"],
  activity: ["daily_active_users", "sessions", "messages", "user_messages"],
  productivity: ["files_created", "files_edited", "git_commits", "git_prs_created"],
  users: ["billable_tokens", "tool_calls", "sessions", "messages", "primary_model"],
};

export function printTable(
  io: CommandIo,
  options: UsageRun & { kind: TableKind },
  rows: Record<string, unknown>[],
  meta: Record<string, unknown>,
  range: DateRange,
): void {
  io.out(`${organisationOf(meta)} · ${range.startDate} to ${range.endDate} (UTC)`);
  if (rows.length === 0) {
    io.out("No usage in this range.");
    return;
  }
  const numbers = options.groupBy ? numberKeys(rows) : COLUMNS[options.kind];
  const key = options.kind === "users" ? "user_email" : options.groupBy ? "group_key" : undefined;
  const header = [
    (options.period ?? "day").toUpperCase(),
    ...(key ? [key === "user_email" ? "USER" : (options.groupBy ?? "")] : []),
    ...numbers,
  ];
  const table: string[][] = [];
  for (const row of rows) {
    table.push([
      show(row["date"]),
      ...(key ? [show(row[key] ?? row["user_id"])] : []),
      ...numbers.map((n) => show(own(row, n))),
    ]);
    if (options.breakdown && options.kind === "tokens")
      for (const model of modelsOf(row))
        table.push([`  ${show(model["model_id"])}`, ...numbers.map((n) => show(own(model, n)))]);
  }
  const totals = totalOf(rows, numbers);
  table.push(["TOTAL", ...(key ? [""] : []), ...numbers.map((n) => show(totals[n]))]);
  const first = header.length - numbers.length;
  const counts = numbers.flatMap((n, i) => (n === "primary_model" ? [] : [first + i]));
  const aligned = alignRight(
    header.map((h, i) => (i < first ? h.toUpperCase() : labelOf(h))),
    table,
    counts,
  );
  for (const line of formatTable(aligned.header, aligned.rows)) io.out(line);
  if (options.breakdown && options.kind !== "tokens")
    io.err("hook-notify usage: --breakdown is by model, for usage tokens.");
  if (options.groupBy) return;
  printCharts(io, options, rows);
}

// The organisation the answer is about (meta.org_id).
function organisationOf(meta: Record<string, unknown>): string {
  const org = meta["org_id"];
  return typeof org === "string" && org
    ? `Organisation ${cell(org, 60)}`
    : "Organisation (not named by the service)";
}
