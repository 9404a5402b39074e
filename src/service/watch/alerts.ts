// `service.alerts`: yesterday's credits (UTC; analytics lags a day) against the config's daily
// thresholds, for the organisation and per user. One fact per day that crossed any of them, so
// a day is announced once however often watch polls.
import type { UsageAlerts } from "../../core/config.js";
import { getAnalytics, type AnalyticsRow, type ServiceContext } from "../client.js";

/** One day over one or more thresholds. */
export interface UsageAlertFact {
  kind: "UsageAlert";
  date: string;
  /** The organisation's credits, when over creditsPerDay. */
  organisation?: { credits: number; limit: number } | undefined;
  /** The users over creditsPerUserPerDay, most first. */
  users: { user: string; credits: number }[];
  userLimit?: number | undefined;
}

// The alert for `date`, null when nothing crossed a threshold, undefined while the service has
// no data for the day yet (ask again on a later poll).
export async function fetchUsageAlert(
  ctx: ServiceContext,
  date: string,
  alerts: UsageAlerts,
): Promise<UsageAlertFact | null | undefined> {
  const rows = await getAnalytics(ctx, "tokens", { startDate: date, endDate: date });
  const day = rows.find((row) => row.date === date);
  if (!day) return undefined;
  return checkThresholds(date, day, alerts);
}

// Pure: the day's token row against the thresholds.
export function checkThresholds(
  date: string,
  day: Pick<AnalyticsRow<"tokens">, "billable_tokens" | "by_user">,
  alerts: UsageAlerts,
): UsageAlertFact | null {
  const total = day.billable_tokens ?? 0;
  const orgLimit = alerts.creditsPerDay;
  const userLimit = alerts.creditsPerUserPerDay;
  const users =
    userLimit === undefined
      ? []
      : (day.by_user ?? [])
          .map((u) => ({ user: u.user_email ?? u.user_id ?? "?", credits: u.billable_tokens ?? 0 }))
          .filter((u) => u.credits > userLimit)
          .sort((a, b) => b.credits - a.credits);
  const overOrg = orgLimit !== undefined && total > orgLimit;
  if (!overOrg && users.length === 0) return null;
  return {
    kind: "UsageAlert",
    date,
    ...(overOrg ? { organisation: { credits: total, limit: orgLimit } } : {}),
    users,
    ...(users.length > 0 ? { userLimit } : {}),
  };
}
