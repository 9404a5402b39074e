// The bar charts under `hook-notify usage`'s table: the kind's main series per day (or per user).
import type { CommandIo } from "./service-command.js";
import { barChart, type ChartStyle } from "./usage-chart.js";
import { chartPoints } from "./usage-points.js";
import type { TableKind, UsageRun } from "./usage-run.js";

/** The series each kind charts under its table: [column, title]. */
const CHARTS: Record<TableKind, [string, string][]> = {
  tokens: [["billable_tokens", "Credits"]],
  tools: [["tool_calls", "Tool calls"]],
  activity: [
    ["daily_active_users", "Active users"],
    ["sessions", "Sessions"],
  ],
  productivity: [["files_edited", "Files edited"]],
  users: [["billable_tokens", "Credits"]],
};

// The charts under a table: one per series of its kind, when it has two points or more.
export function printCharts(
  io: CommandIo,
  options: UsageRun & { kind: TableKind },
  rows: Record<string, unknown>[],
): void {
  const style = chartStyle(io);
  for (const [column, title] of CHARTS[options.kind]) {
    const points = chartPoints(rows, column, options.kind === "users");
    if (points.length < 2) continue;
    io.out("");
    for (const line of barChart(
      `${title} per ${options.kind === "users" ? "user" : (options.period ?? "day")}`,
      points,
      style,
    ))
      io.out(line);
  }
}

// Unicode on a terminal without NO_COLOR; plain ASCII otherwise.
function chartStyle(io: CommandIo): ChartStyle {
  const env = io.deps.env;
  const noColor = env["NO_COLOR"] !== undefined && env["NO_COLOR"] !== "";
  const force = env["FORCE_COLOR"] !== undefined && env["FORCE_COLOR"] !== "0";
  const tty = (io.deps.stdout as { isTTY?: boolean }).isTTY === true;
  return { unicode: !noColor && (tty || force), width: 40 };
}
