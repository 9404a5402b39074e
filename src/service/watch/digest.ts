// `--digest daily`: yesterday's analytics (UTC) as one message. Today is rejected by the service
// and a day's data appears the next day, so the digest is for yesterday and waits while the
// service has no row for it yet.
import { compact } from "../../message/format.js";
import { getAnalytics, getAnalyticsAnswer, type ServiceContext } from "../client.js";

export interface DigestFact {
  kind: "DailyDigest";
  date: string;
  credits: number;
  activeUsers: number;
  sessions: number;
  toolCalls: number;
  topModels: { model: string; credits: number }[];
  commits: number;
  prs: number;
  /** The organisation (meta.org_id), when the service names it. */
  org?: string | undefined;
}

// The UTC day before `now`, as YYYY-MM-DD.
export function yesterdayUtc(now: number): string {
  return new Date(now - 86_400_000).toISOString().slice(0, 10);
}

// The digest of `date`, or undefined while the service has no data for it yet.
export function fetchDigest(ctx: ServiceContext, date: string): Promise<DigestFact | undefined> {
  return fetchRangeDigest(ctx, { startDate: date, endDate: date });
}

// The digest of a range of days (a week: `usage digest --week`), summed; `date` names the range.
// Undefined while the service has no data for its last day yet.
export async function fetchRangeDigest(
  ctx: ServiceContext,
  range: { startDate: string; endDate: string },
): Promise<DigestFact | undefined> {
  const [{ data: tokens, meta }, activity, tools, productivity] = await Promise.all([
    getAnalyticsAnswer(ctx, "tokens", range),
    getAnalytics(ctx, "activity", range),
    getAnalytics(ctx, "tools", range),
    getAnalytics(ctx, "productivity", range),
  ]);
  const last = range.endDate;
  const lastActivity = activity.find((row) => row.date === last);
  if (!tokens.some((row) => row.date === last) && !lastActivity) return undefined;
  const sum = <T>(rows: T[], value: (row: T) => number | undefined) =>
    rows.reduce((total, row) => total + (value(row) ?? 0), 0);
  const models = new Map<string, number>();
  for (const row of tokens.flatMap((day) => day.by_model ?? [])) {
    models.set(row.model_id, (models.get(row.model_id) ?? 0) + (row.billable_tokens ?? 0));
  }
  const single = range.startDate === range.endDate;
  return {
    kind: "DailyDigest",
    date: single ? last : `${range.startDate} to ${last}`,
    credits: sum(tokens, (row) => row.billable_tokens),
    // A day counts its users; a longer range the last day's weekly figure (no double counting).
    activeUsers: single
      ? (lastActivity?.daily_active_users ?? 0)
      : (numberOf(lastActivity, "weekly_active_users") ??
        Math.max(0, ...activity.map((row) => row.daily_active_users ?? 0))),
    sessions: sum(activity, (row) => row.sessions),
    toolCalls: sum(tools, (row) => row.tool_calls),
    topModels: [...models]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 3)
      .map(([model, credits]) => ({ model, credits })),
    commits: sum(productivity, (row) => row.git_commits),
    prs: sum(productivity, (row) => row.git_prs_created),
    ...(typeof meta.org_id === "string" && meta.org_id ? { org: meta.org_id } : {}),
  };
}

function numberOf(row: Record<string, unknown> | undefined, key: string): number | undefined {
  const value = row?.[key];
  return typeof value === "number" ? value : undefined;
}

// "model-gamma 61.2k, model-beta 40.3k"
export function describeTopModels(fact: DigestFact): string {
  return fact.topModels.map((m) => `${m.model} ${compact(m.credits)}`).join(", ");
}
