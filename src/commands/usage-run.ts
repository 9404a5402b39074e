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
import { getAnalytics, listUserMetrics } from "../service/client.js";
import type { ServiceContext } from "../service/http.js";
import { fetchRangeDigest, yesterdayUtc } from "../service/watch/digest.js";
import { noticeOf } from "../service/watch/notices.js";
import { formatTable } from "../style.js";
import { loadService, runServiceWork, type CommandIo } from "./service-command.js";
import { cell } from "./cells.js";

/** What `hook-notify usage` shows (the yargs choices in usage.ts list the same). */
export const USAGE_KINDS = [
  "tokens",
  "tools",
  "activity",
  "productivity",
  "users",
  "digest",
] as const;
export type UsageKind = (typeof USAGE_KINDS)[number];

/** The parsed command line of `hook-notify usage`. */
export interface UsageRun {
  configPath?: string | undefined;
  kind: UsageKind;
  from?: string | undefined;
  to?: string | undefined;
  groupBy?: string | undefined;
  user?: string | undefined;
  /** digest: the seven days up to --to instead of one. */
  week?: boolean | undefined;
  json: boolean;
}

// The numbers each kind shows in its table (JSON carries every field).
const COLUMNS: Record<Exclude<UsageKind, "digest">, string[]> = {
  tokens: ["billable_tokens", "input_tokens", "output_tokens", "cache_read_tokens"],
  tools: ["tool_calls", "skills_invocations", "hooks_invocations", "autonomy_ratio_avg"],
  activity: ["daily_active_users", "sessions", "messages", "user_messages"],
  productivity: ["files_created", "files_edited", "git_commits", "git_prs_created"],
  users: ["billable_tokens", "tool_calls", "sessions", "messages", "primary_model"],
};

// Exit code: 0 with the rows printed, 1 on any failure (one line on stderr).
export async function runUsage(io: CommandIo, options: UsageRun): Promise<number> {
  const name = `usage ${options.kind}`;
  const loaded = loadService(io, name, options.configPath);
  if (!loaded) return 1;
  return runServiceWork(io, name, loaded, async (ctx) => {
    const end = options.to ?? yesterdayUtc(io.deps.now());
    const start = options.week ? weekBefore(end) : (options.from ?? end);
    const range = checkRange({ startDate: start, endDate: end }, io.deps.now());
    if (options.kind === "digest") return printDigest(ctx, io, range, loaded.config, options.json);
    const rows = await rowsOf(ctx, options.kind, range, options);
    if (options.json) {
      io.out(JSON.stringify(rows, null, 2));
      return;
    }
    const numbers = options.groupBy ? numberKeys(rows) : COLUMNS[options.kind];
    const key = options.kind === "users" ? "user_email" : options.groupBy ? "group_key" : undefined;
    const header = [
      "DATE",
      ...(key ? [key === "user_email" ? "USER" : (options.groupBy ?? "")] : []),
      ...numbers,
    ];
    const table = rows.map((row) => [
      show(row.date),
      ...(key ? [show(row[key] ?? row.user_id)] : []),
      ...numbers.map((n) => show(row[n])),
    ]);
    for (const line of formatTable(
      header.map((h) => h.toUpperCase()),
      table,
    ))
      io.out(line);
  });
}

async function rowsOf(
  ctx: ServiceContext,
  kind: Exclude<UsageKind, "digest">,
  range: DateRange,
  o: UsageRun,
): Promise<Record<string, unknown>[]> {
  if (kind === "users") {
    if (o.groupBy) throw new HookNotifyError("USAGE", "users has no --group-by.");
    const rows: Record<string, unknown>[] = [];
    for await (const row of listUserMetrics(ctx, range))
      if (!o.user || row.user_email === o.user || row.user_id === o.user) rows.push(row);
    return rows;
  }
  if (o.user) throw new HookNotifyError("USAGE", "--user goes with usage users.");
  if (o.groupBy) return getGroupedAnalytics(ctx, kind, range, o.groupBy);
  return getAnalytics(ctx, kind, range);
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
    project: new URL(ctx.service.baseUrl).host,
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
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(2);
  if (typeof value === "string") return cell(value, 40);
  return value === undefined || value === null ? "" : cell(JSON.stringify(value), 40);
}

// The first of the seven days that end on `end` (not before the first day with data).
function weekBefore(end: string): string {
  const start = new Date(Date.parse(`${end}T00:00:00Z`) - 6 * 86_400_000);
  const day = Number.isNaN(start.getTime()) ? end : start.toISOString().slice(0, 10);
  return day < EARLIEST_DAY ? EARLIEST_DAY : day;
}
