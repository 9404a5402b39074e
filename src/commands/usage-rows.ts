// The arithmetic of `hook-notify usage`'s rows (pure): day rows summed into weeks or months,
// totals (averages for what is not a count), a value as a table cell.
import { cell } from "./cells.js";
import { readableNumber } from "./usage-table.js";

/** Columns that are not counts: averaged, not summed, over a week, a month or the total. */
export const AVERAGED = /(_avg|_p50|_p90|ratio|weekly_active|monthly_active|daily_active)/;

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

export function totalOf(
  rows: Record<string, unknown>[],
  columns: string[],
): Record<string, number> {
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

export function modelsOf(row: Record<string, unknown>): Record<string, unknown>[] {
  const models = row["by_model"];
  return Array.isArray(models) ? (models as Record<string, unknown>[]) : [];
}

export function numberKeys(rows: Record<string, unknown>[]): string[] {
  return [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((k) =>
    rows.some((row) => typeof row[k] === "number"),
  );
}

export function show(value: unknown): string {
  if (typeof value === "number") return readableNumber(value);
  if (typeof value === "string") return cell(value, 40);
  return value === undefined || value === null ? "" : cell(JSON.stringify(value), 40);
}
