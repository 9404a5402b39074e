// The work of `hook-notify usage`: the organisation's analytics for a range of UTC days, per day
// or grouped (model, tool, client), the per-user rows, or the daily digest on demand.
import { HookNotifyError } from "../errors.js";
import {
  checkRange,
  EARLIEST_DAY,
  getGroupedAnalytics,
  type DateRange,
} from "../service/analytics-api.js";
import { getAnalyticsAnswer, listUserMetrics } from "../service/client.js";
import type { ServiceContext } from "../service/http.js";
import { yesterdayUtc } from "../service/watch/digest.js";
import { withService, type CommandIo } from "./service-command.js";
import { printTable } from "./usage-print.js";
import { byPeriod } from "./usage-rows.js";
import { printDigest, writeReport } from "./usage-whole-range.js";

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
export type TableKind = Exclude<UsageKind, "digest" | "report">;

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

// The first of the `count` days that end on `end` (not before the first day with data).
function daysBefore(end: string, count: number): string {
  const start = new Date(Date.parse(`${end}T00:00:00Z`) - (count - 1) * 86_400_000);
  const day = Number.isNaN(start.getTime()) ? end : start.toISOString().slice(0, 10);
  return day < EARLIEST_DAY ? EARLIEST_DAY : day;
}
