// The work of `hook-notify usage`: the organisation's analytics for a range of UTC days, per day
// or grouped (model, tool, client), the per-user rows, or the daily digest on demand.
import type { Config } from "../core/config.js";
import { HookNotifyError } from "../errors.js";
import {
  checkRange,
  EARLIEST_DAY,
  getGroupedAnalytics,
  type DateRange,
} from "../service/analytics-api.js";
import { getAnalyticsAnswer, listUserMetrics } from "../service/client.js";
import type { ServiceContext } from "../service/http.js";
import { fetchRangeDigest, yesterdayUtc } from "../service/watch/digest.js";
import { noticeOf } from "../service/watch/notices.js";
import { formatTable } from "../style.js";
import { withService, type CommandIo } from "./service-command.js";
import { cell } from "./cells.js";
import { barChart, type ChartStyle, type Point } from "./usage-chart.js";
import { reportHtml } from "./usage-report.js";
import { alignRight, labelOf, readableNumber } from "./usage-table.js";

/** What `hook-notify usage` shows (the yargs choices in usage.ts list the same). */
export const USAGE_KINDS = [
  "tokens",
  "tools",
  "activity",
  "productivity",
  "users",
  "digest",
  "report",
] as const;
export type UsageKind = (typeof USAGE_KINDS)[number];
type TableKind = Exclude<UsageKind, "digest" | "report">;

/** The parsed command line of `hook-notify usage`. */
export interface UsageRun {
  configPath?: string | undefined;
  kind: UsageKind;
  from?: string | undefined;
  to?: string | undefined;
  groupBy?: string | undefined;
  user?: string | undefined;
  /** The seven days up to --to (--month: thirty) instead of one. */
  week?: boolean | undefined;
  month?: boolean | undefined;
  /** Rows per day (default), ISO week or month, summed. */
  period?: "day" | "week" | "month" | undefined;
  /** tokens: a line per model under each row. */
  breakdown?: boolean | undefined;
  /** report: the HTML file to write. */
  html?: string | undefined;
  timeoutSeconds?: number | undefined;
  json: boolean;
}

// The numbers each kind shows in its table (JSON carries every field).
const COLUMNS: Record<TableKind, string[]> = {
  tokens: ["billable_tokens", "input_tokens", "output_tokens", "cache_read_tokens"],
  tools: ["tool_calls", "skills_invocations", "hooks_invocations", "autonomy_ratio_avg"],
  activity: ["daily_active_users", "sessions", "messages", "user_messages"],
  productivity: ["files_created", "files_edited", "git_commits", "git_prs_created"],
  users: ["billable_tokens", "tool_calls", "sessions", "messages", "primary_model"],
};

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

/** Columns that are not counts: averaged, not summed, over a week, a month or the total. */
const AVERAGED = /(_avg|_p50|_p90|ratio|weekly_active|monthly_active|daily_active)/;

// Exit code: 0 with the rows printed, 2 a usage mistake, 3 the service refused, 1 a failure.
export async function runUsage(io: CommandIo, options: UsageRun): Promise<number> {
  const name = `usage ${options.kind}`;
  const mistake =
    options.kind === "report" && !options.html
      ? "give the file to write, e.g. --html usage.html"
      : undefined;
  return withService(io, name, { ...options, mistake }, async (ctx, loaded) => {
    const end = options.to ?? yesterdayUtc(io.deps.now());
    const days = options.month || options.kind === "report" ? 30 : options.week ? 7 : 0;
    const start = days ? daysBefore(end, days) : (options.from ?? end);
    const range = checkRange({ startDate: start, endDate: end }, io.deps.now());
    if (options.kind === "digest") return printDigest(ctx, io, range, loaded.config, options.json);
    if (options.kind === "report") return writeReport(ctx, io, range, options.html ?? "");
    const kind = options.kind;
    const { data, meta } = await rowsOf(ctx, kind, range, options);
    const rows = byPeriod(data, options.period ?? "day", options.groupBy ? "group_key" : undefined);
    if (options.json) {
      io.out(JSON.stringify({ data: rows, meta }, null, 2));
      return;
    }
    printTable(io, { ...options, kind }, rows, meta, range);
  });
}

function printTable(
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
      ...numbers.map((n) => show(row[n])),
    ]);
    if (options.breakdown && options.kind === "tokens")
      for (const model of modelsOf(row))
        table.push([`  ${show(model["model_id"])}`, ...numbers.map((n) => show(model[n]))]);
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

// The organisation the answer is about (meta.org_id).
function organisationOf(meta: Record<string, unknown>): string {
  const org = meta["org_id"];
  return typeof org === "string" && org
    ? `Organisation ${cell(org, 60)}`
    : "Organisation (not named by the service)";
}

// Unicode on a terminal without NO_COLOR; plain ASCII otherwise.
function chartStyle(io: CommandIo): ChartStyle {
  const env = io.deps.env;
  const noColor = env["NO_COLOR"] !== undefined && env["NO_COLOR"] !== "";
  const force = env["FORCE_COLOR"] !== undefined && env["FORCE_COLOR"] !== "0";
  const tty = (io.deps.stdout as { isTTY?: boolean }).isTTY === true;
  return { unicode: !noColor && (tty || force), width: 40 };
}

function chartPoints(rows: Record<string, unknown>[], column: string, perUser: boolean): Point[] {
  if (!perUser)
    return rows.map((row) => ({ label: show(row["date"]), value: numberOf(row[column]) }));
  const sums = new Map<string, number>();
  for (const row of rows) {
    const who = show(row["user_email"] ?? row["user_id"]);
    sums.set(who, (sums.get(who) ?? 0) + numberOf(row[column]));
  }
  return [...sums]
    .map(([label, value]) => ({ label, value }))
    .sort((a, b) => b.value - a.value)
    .slice(0, 20);
}

function modelsOf(row: Record<string, unknown>): Record<string, unknown>[] {
  const models = row["by_model"];
  return Array.isArray(models) ? (models as Record<string, unknown>[]) : [];
}

// Day rows summed into ISO weeks (the Monday) or months (YYYY-MM); a group key stays apart.
export function byPeriod(
  rows: Record<string, unknown>[],
  period: "day" | "week" | "month",
  key: string | undefined,
): Record<string, unknown>[] {
  if (period === "day") return rows;
  const buckets = new Map<string, Record<string, unknown>[]>();
  for (const row of rows) {
    const date = typeof row["date"] === "string" ? row["date"] : "";
    const label = period === "month" ? date.slice(0, 7) : mondayOf(date);
    const id = `${label}\u0000${key ? show(row[key]) : ""}`;
    buckets.set(id, [...(buckets.get(id) ?? []), row]);
  }
  return [...buckets.values()].map((group) => ({
    ...totalOf(group, numberKeys(group)),
    date:
      period === "month"
        ? String(group[0]?.["date"]).slice(0, 7)
        : mondayOf(String(group[0]?.["date"])),
    ...(key ? { [key]: group[0]?.[key] } : {}),
    days: group.length,
  }));
}

function totalOf(rows: Record<string, unknown>[], columns: string[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const column of columns) {
    const values = rows.map((row) => row[column]).filter((v): v is number => typeof v === "number");
    if (values.length === 0) continue;
    const sum = values.reduce((a, b) => a + b, 0);
    total[column] = AVERAGED.test(column) ? sum / values.length : sum;
  }
  return total;
}

function mondayOf(date: string): string {
  const at = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(at)) return date;
  const weekday = (new Date(at).getUTCDay() + 6) % 7;
  return new Date(at - weekday * 86_400_000).toISOString().slice(0, 10);
}

function numberOf(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

async function rowsOf(
  ctx: ServiceContext,
  kind: TableKind,
  range: DateRange,
  o: UsageRun,
): Promise<{ data: Record<string, unknown>[]; meta: Record<string, unknown> }> {
  if (kind === "users") {
    if (o.groupBy) throw new HookNotifyError("USAGE", "users has no --group-by.");
    const rows: Record<string, unknown>[] = [];
    let meta: Record<string, unknown> = {};
    const keep = (m: Record<string, unknown>): void => {
      meta = { ...m, ...meta };
    };
    for await (const row of listUserMetrics(ctx, range, keep))
      if (!o.user || row.user_email === o.user || row.user_id === o.user) rows.push(row);
    return { data: rows, meta };
  }
  if (o.user) throw new HookNotifyError("USAGE", "--user goes with usage users.");
  if (o.groupBy) return getGroupedAnalytics(ctx, kind, range, o.groupBy);
  return getAnalyticsAnswer(ctx, kind, range);
}

// The HTML page of the range: credits per day, active users, sessions, tool calls.
async function writeReport(
  ctx: ServiceContext,
  io: CommandIo,
  range: DateRange,
  file: string,
): Promise<void> {
  const [tokens, activity, tools] = await Promise.all([
    getAnalyticsAnswer(ctx, "tokens", range),
    getAnalyticsAnswer(ctx, "activity", range),
    getAnalyticsAnswer(ctx, "tools", range),
  ]);
  const series = (rows: Record<string, unknown>[], column: string, title: string) => ({
    title,
    points: chartPoints(rows, column, false),
    summary: AVERAGED.test(column) ? ("average" as const) : ("total" as const),
  });
  const org = tokens.meta.org_id ?? activity.meta.org_id;
  const html = reportHtml({
    organisation: org ? `organisation ${org}` : "the organisation",
    startDate: range.startDate,
    endDate: range.endDate,
    generatedAt: new Date(io.deps.now()).toISOString().slice(0, 16).replace("T", " ") + " UTC",
    series: [
      series(tokens.data, "billable_tokens", "Credits per day"),
      series(activity.data, "daily_active_users", "Active users per day"),
      series(activity.data, "sessions", "Sessions per day"),
      series(tools.data, "tool_calls", "Tool calls per day"),
    ],
  });
  const { writeFile } = await import("node:fs/promises");
  await writeFile(file, html, { mode: 0o644 }).catch((error: unknown) => {
    throw new HookNotifyError("USAGE", `cannot write ${file}: ${(error as Error).message}`);
  });
  io.out(`Wrote ${file}: ${range.startDate} to ${range.endDate}, 4 charts.`);
}

async function printDigest(
  ctx: ServiceContext,
  io: CommandIo,
  range: DateRange,
  config: Config,
  json: boolean,
): Promise<void> {
  const fact = await fetchRangeDigest(ctx, range);
  if (!fact) throw new HookNotifyError("USAGE", `no usage data for ${range.endDate} yet.`);
  if (json) {
    io.out(JSON.stringify(fact, null, 2));
    return;
  }
  const notice = noticeOf(fact, config, {
    id: "digest",
    now: io.deps.now(),
    project: fact.org ? cell(fact.org, 60) : new URL(ctx.service.baseUrl).host,
  });
  io.out(notice.title);
  io.out(notice.body);
}

function numberKeys(rows: Record<string, unknown>[]): string[] {
  return [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((k) =>
    rows.some((row) => typeof row[k] === "number"),
  );
}

function show(value: unknown): string {
  if (typeof value === "number") return readableNumber(value);
  if (typeof value === "string") return cell(value, 40);
  return value === undefined || value === null ? "" : cell(JSON.stringify(value), 40);
}

// The first of the `count` days that end on `end` (not before the first day with data).
function daysBefore(end: string, count: number): string {
  const start = new Date(Date.parse(`${end}T00:00:00Z`) - (count - 1) * 86_400_000);
  const day = Number.isNaN(start.getTime()) ? end : start.toISOString().slice(0, 10);
  return day < EARLIEST_DAY ? EARLIEST_DAY : day;
}
