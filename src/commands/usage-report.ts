// `usage report --html FILE`: one self-contained page with the charts people compare (credits
// per day, active users, sessions, tool calls), each an inline SVG. No script, no external
// resource: a Content-Security-Policy of default-src 'none' keeps the page from loading
// anything, whoever opens it. Pure: the series in, the HTML text out.
import { compact, type Point } from "./usage-chart.js";

export interface Series {
  title: string;
  points: Point[];
  /** What the heading sums up: the total (counts) or the average (users a day). */
  summary?: "total" | "average" | undefined;
}

export interface Report {
  organisation: string;
  startDate: string;
  endDate: string;
  series: Series[];
  generatedAt: string;
}

const W = 720;
const H = 220;
const PAD = { left: 56, right: 12, top: 12, bottom: 40 };

// The page.
export function reportHtml(report: Report): string {
  const title = `Usage of ${report.organisation}, ${report.startDate} to ${report.endDate}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1d2430; background: #fff; }
h1 { font-size: 20px; margin: 0 0 4px; }
p.meta { color: #5b6573; margin: 0 0 20px; }
section { margin: 0 0 28px; }
h2 { font-size: 16px; margin: 0 0 6px; }
h2 small { color: #5b6573; font-weight: normal; }
svg text { font: 11px system-ui, sans-serif; fill: #5b6573; }
svg rect.bar { fill: #3b6fd8; }
</style>
</head>
<body>
<h1>${esc(title)}</h1>
<p class="meta">UTC days. Made by hook-notify usage report at ${esc(report.generatedAt)}.</p>
${report.series.map(section).join("\n")}
</body>
</html>
`;
}

function section(series: Series): string {
  const total = series.points.reduce((sum, p) => sum + p.value, 0);
  const average = series.summary === "average";
  const shown = average ? total / Math.max(1, series.points.length) : total;
  return `<section>
<h2>${esc(series.title)} <small>${average ? "average" : "total"} ${esc(compact(shown))}</small></h2>
${svgChart(series)}
</section>`;
}

// Bars with the value above each and the label below; the y axis from 0 to the largest value.
function svgChart(series: Series): string {
  const points = series.points;
  const max = Math.max(1, ...points.map((p) => p.value));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const step = points.length > 0 ? plotW / points.length : plotW;
  const barW = Math.max(1, step * 0.7);
  const every = Math.max(1, Math.ceil(points.length / 12));
  const bars = points.map((p, i) => {
    const h = (Math.max(0, p.value) / max) * plotH;
    const x = PAD.left + i * step + (step - barW) / 2;
    const y = PAD.top + plotH - h;
    const label =
      i % every === 0
        ? `<text x="${n(x + barW / 2)}" y="${n(H - PAD.bottom + 16)}" text-anchor="middle">${esc(p.label.slice(5))}</text>`
        : "";
    return `<rect class="bar" x="${n(x)}" y="${n(y)}" width="${n(barW)}" height="${n(h)}"><title>${esc(`${p.label}: ${compact(p.value)}`)}</title></rect>${label}`;
  });
  const axis = [0, 0.5, 1].map((f) => {
    const y = PAD.top + plotH - f * plotH;
    return `<line x1="${n(PAD.left)}" x2="${n(W - PAD.right)}" y1="${n(y)}" y2="${n(y)}" stroke="#e3e7ee"/><text x="${n(PAD.left - 6)}" y="${n(y + 4)}" text-anchor="end">${esc(compact(max * f))}</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${esc(series.title)}" width="${String(W)}" height="${String(H)}" viewBox="0 0 ${String(W)} ${String(H)}">${axis.join("")}${bars.join("")}</svg>`;
}

function n(value: number): string {
  return value.toFixed(1);
}

function esc(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}
