// The points of a usage chart: a column per day, or summed per user (the 20 largest).
import type { Point } from "./usage-chart.js";
import { show } from "./usage-rows.js";

export function chartPoints(
  rows: Record<string, unknown>[],
  column: string,
  perUser: boolean,
): Point[] {
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

function numberOf(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}
