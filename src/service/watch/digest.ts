// `--digest daily`: yesterday's analytics (UTC) as one message. Today is rejected by the service
// and a day's data appears the next day, so the digest is for yesterday and waits while the
// service has no row for it yet.
import { compact } from "../../message/format.js";
import { getAnalytics, type ServiceContext } from "../client.js";

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
}

// The UTC day before `now`, as YYYY-MM-DD.
export function yesterdayUtc(now: number): string {
  return new Date(now - 86_400_000).toISOString().slice(0, 10);
}

// The digest of `date`, or undefined while the service has no data for it yet.
export async function fetchDigest(
  ctx: ServiceContext,
  date: string,
): Promise<DigestFact | undefined> {
  const range = { startDate: date, endDate: date };
  const [tokens, activity, tools, productivity] = await Promise.all([
    getAnalytics(ctx, "tokens", range),
    getAnalytics(ctx, "activity", range),
    getAnalytics(ctx, "tools", range),
    getAnalytics(ctx, "productivity", range),
  ]);
  const day = <T extends { date: string }>(rows: T[]) => rows.find((row) => row.date === date);
  const t = day(tokens);
  const a = day(activity);
  if (!t && !a) return undefined;
  const models = new Map<string, number>();
  for (const row of t?.by_model ?? []) {
    models.set(row.model_id, (models.get(row.model_id) ?? 0) + (row.billable_tokens ?? 0));
  }
  const p = day(productivity);
  return {
    kind: "DailyDigest",
    date,
    credits: t?.billable_tokens ?? 0,
    activeUsers: a?.daily_active_users ?? 0,
    sessions: a?.sessions ?? 0,
    toolCalls: day(tools)?.tool_calls ?? 0,
    topModels: [...models]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 3)
      .map(([model, credits]) => ({ model, credits })),
    commits: p?.git_commits ?? 0,
    prs: p?.git_prs_created ?? 0,
  };
}

// "model-gamma 61.2k, model-beta 40.3k"
export function describeTopModels(fact: DigestFact): string {
  return fact.topModels.map((m) => `${m.model} ${compact(m.credits)}`).join(", ");
}
