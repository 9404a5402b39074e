// `hook-notify usage report` and `usage digest`: the whole range as one thing, an HTML page of
// charts written to a file, or the digest notification's text.
import type { Config } from "../core/config.js";
import { HookNotifyError } from "../errors.js";
import type { DateRange } from "../service/analytics-api.js";
import { getAnalyticsAnswer } from "../service/client.js";
import type { ServiceContext } from "../service/http.js";
import { fetchRangeDigest } from "../service/watch/digest.js";
import { noticeOf } from "../service/watch/notices.js";
import { cell } from "./cells.js";
import type { CommandIo } from "./service-command.js";
import { reportHtml } from "./usage-report.js";
import { chartPoints } from "./usage-points.js";
import { AVERAGED } from "./usage-rows.js";

export // The HTML page of the range: credits per day, active users, sessions, tool calls.
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

// The digest of the range: the notification `watch --digest daily` sends, or its facts (--json).
export async function printDigest(
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
