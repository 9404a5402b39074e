// Charts of a usage series for the terminal: one bar per day (or week, month, user) with its
// value, and a sparkline. Unicode blocks on a terminal; plain ASCII when the output is not a
// terminal or NO_COLOR is set, so a pipe or a log reads the same numbers. Pure.

export interface Point {
  label: string;
  value: number;
}

export interface ChartStyle {
  /** Unicode blocks (a terminal without NO_COLOR), else ASCII. */
  unicode: boolean;
  /** Columns for the longest bar. */
  width: number;
}

const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
const SPARKS = "▁▂▃▄▅▆▇█";

// "credits per day" then one line a point: "2026-11-20 ████████▌  12.4k".
export function barChart(title: string, points: readonly Point[], style: ChartStyle): string[] {
  const max = Math.max(0, ...points.map((p) => p.value));
  const labelWidth = Math.max(0, ...points.map((p) => p.label.length));
  const lines = [`${title}${style.unicode && points.length > 1 ? `  ${sparkline(points)}` : ""}`];
  for (const point of points) {
    const length = max > 0 ? (Math.max(0, point.value) / max) * style.width : 0;
    lines.push(
      `  ${point.label.padEnd(labelWidth)} ${bar(length, style.unicode).padEnd(style.width + 1)} ${compact(point.value)}`,
    );
  }
  return lines;
}

// ▁▃█▅: one block a point, scaled between the series' smallest and largest value.
export function sparkline(points: readonly Point[]): string {
  const values = points.map((p) => p.value);
  const low = Math.min(...values);
  const high = Math.max(...values);
  return values
    .map((v) => SPARKS[high === low ? 0 : Math.round(((v - low) / (high - low)) * 7)] ?? "▁")
    .join("");
}

function bar(length: number, unicode: boolean): string {
  if (!unicode) return "#".repeat(Math.round(length));
  const whole = Math.floor(length);
  return "█".repeat(whole) + (EIGHTHS[Math.round((length - whole) * 8) % 8] ?? "");
}

// 1234 → 1.2k, 2_500_000 → 2.5M, 0.42 → 0.42
export function compact(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${trim(value / 1e9)}G`;
  if (abs >= 1e6) return `${trim(value / 1e6)}M`;
  if (abs >= 1e3) return `${trim(value / 1e3)}k`;
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

function trim(value: number): string {
  return value.toFixed(1).replace(/\.0$/, "");
}
