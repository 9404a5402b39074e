// Analytics beyond the day rows the digest reads: the documented date limits checked before a
// request is sent, and group_by (one row per day per model, tool or client).
import { HookNotifyError } from "../errors.js";
import type { AnalyticsKind } from "./client.js";
import { callService, type ServiceContext } from "./http.js";
import { analyticsSchema, groupRowSchema } from "./schemas.js";

/** The group_by value each analytics endpoint documents. */
export const GROUP_BY: Partial<Record<AnalyticsKind, string>> = {
  tokens: "model",
  tools: "tool_name",
  activity: "client",
};
/** The first day the analytics have data for. */
export const EARLIEST_DAY = "2026-01-14";
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Both days inclusive, YYYY-MM-DD, UTC. */
export interface DateRange {
  startDate: string;
  endDate: string;
}

// A range the service accepts: YYYY-MM-DD, from 2026-01-14, before today (UTC), start ≤ end.
// Throws USAGE with the fix otherwise.
export function checkRange(range: DateRange, now: number): DateRange {
  const today = new Date(now).toISOString().slice(0, 10);
  for (const [flag, value] of [
    ["--from", range.startDate],
    ["--to", range.endDate],
  ] as const) {
    if (!DAY.test(value) || Number.isNaN(Date.parse(value)))
      throw usage(`${flag} ${value.slice(0, 20)}: write the day as YYYY-MM-DD.`);
    if (value >= today)
      throw usage(`${flag} ${value}: analytics has data up to yesterday (UTC) only.`);
    if (value < EARLIEST_DAY) throw usage(`${flag} ${value}: analytics starts on ${EARLIEST_DAY}.`);
  }
  if (range.startDate > range.endDate) throw usage("--from is after --to.");
  return range;
}

// GET /api/v1/analytics/{kind}?group_by=…: rows {date, group_key, …numbers}.
export async function getGroupedAnalytics(
  ctx: ServiceContext,
  kind: AnalyticsKind,
  range: DateRange,
  groupBy: string,
): Promise<{ data: Record<string, unknown>[]; meta: Record<string, unknown> }> {
  if (GROUP_BY[kind] !== groupBy)
    throw usage(
      `--group-by ${groupBy.slice(0, 20)} is not documented for ${kind}${GROUP_BY[kind] ? `; use ${GROUP_BY[kind]}` : " (it has no group_by)"}.`,
    );
  const answer = await callService(
    ctx,
    { path: `/api/v1/analytics/${kind}`, query: { ...range, group_by: groupBy } },
    analyticsSchema(groupRowSchema),
  );
  return { data: answer.data, meta: answer.meta ?? {} };
}

function usage(message: string): HookNotifyError {
  return new HookNotifyError("USAGE", message, { retryable: false });
}
