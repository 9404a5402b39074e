// The receipt parts of a `hook-notify log` row: the service's message id, what a sink reported
// after sending (shown, clicked, closed, acknowledged, expired), and the fallbacks that stood in for a sink that gave up.
import type { OutboxLine } from "../journal/line.js";
import { inertText } from "../shown-text.js";
import type { Style } from "../style.js";
import { fallbackKey, rescuedBy, type LoggedRun } from "../journal/runs.js";

// " (id 1234)", " (shown #7, dismissed)", " (shown #7, clicked: tmux pane %3 selected)",
// " (shown #7, close reason unknown: dbus-monitor not found)"; "" when nothing is known.
export function receiptNote(run: LoggedRun, sink: string, later: OutboxLine | undefined): string {
  const parts = [
    ...(typeof later?.messageId === "string" ? [`id ${shortText(later.messageId)}`] : []),
    ...(run.receipts.get(sink) ?? []).map(describeReceipt),
  ];
  return parts.length === 0 ? "" : ` (${parts.join(", ")})`;
}

// "shown #7", "dismissed" (a close gives its reason), "clicked: …", "close reason unknown: …",
// "acknowledged by pixel-8 at 14:02", "expired at 14:30"
function describeReceipt(line: OutboxLine): string {
  const state = typeof line.state === "string" ? line.state : "reported";
  const id = typeof line.messageId === "string" ? ` #${shortText(line.messageId)}` : "";
  const reason = typeof line.reason === "string" ? shortText(line.reason, 72) : undefined;
  if (state === "shown") return `shown${id}`;
  if (state === "closed") return reason ?? "closed";
  if (state === "unknown") return `close reason unknown${reason ? `: ${reason}` : ""}`;
  if (state === "acknowledged" || state === "expired") {
    // A service's receipt id says nothing more than the message id beside it.
    const by = typeof line.by === "string" ? ` by ${shortText(line.by)}` : "";
    const at = typeof line.at === "string" ? ` at ${clockOf(line.at)}` : "";
    return `${state}${by}${at}${reason ? `: ${reason}` : ""}`;
  }
  return `${shortText(state)}${reason ? `: ${reason}` : ""}`;
}

// "14:02" in local time, or "?" for a time that does not parse.
function clockOf(iso: string): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return "?";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(time.getHours())}:${pad(time.getMinutes())}`;
}

// " → mail" after a sink that gave up, naming the fallbacks it handed the notification to, and
// " (fallback to mail skipped: it already has it)" for those that got it directly.
export function fallbackNote(fallback: unknown, skipped?: unknown): string {
  const targets = Array.isArray(fallback) ? (fallback as unknown[]).filter(isString) : [];
  const had = Array.isArray(skipped) ? (skipped as unknown[]).filter(isString) : [];
  const handed = targets.length === 0 ? "" : ` → ${targets.join(", ")}`;
  const already = had.length === 1 ? "it already has it" : "they already have it";
  return had.length === 0
    ? handed
    : `${handed} (fallback to ${had.join(", ")} skipped: ${already})`;
}

// One cell per fallback delivery: "✓ mail (fallback for discord)", "queued mail (fallback …)".
export function fallbackCells(run: LoggedRun, style: Style): string[] {
  const cells: string[] = [];
  for (const [key, line] of run.journal) {
    const of = typeof line.fallbackOf === "string" ? line.fallbackOf : undefined;
    if (!of || !line.sink || key !== fallbackKey(line.sink)) continue;
    const what = `${line.sink} (fallback for ${of})`;
    if (line.outbox === "delivered")
      cells.push(style.ok(`${style.okMark} ${what}${receiptNote(run, key, line)}`));
    else if (line.outbox === "failed")
      cells.push(style.fail(`${style.failMark} ${what} ${line.code ?? ""}`.trimEnd()));
    else if (line.outbox === "retry") cells.push(style.warn(`queued ${what}`));
    else cells.push(style.dim(`${line.outbox} ${what}`));
  }
  return cells;
}

// True when a failed sink's notification reached a person through a fallback after all (or
// through a sink its fallback names that had it anyway).
export function isRescued(run: LoggedRun, fallback: unknown, skipped?: unknown): boolean {
  return rescuedBy(run, fallback, skipped) !== undefined;
}

function shortText(text: string, max = 40): string {
  const line = inertText(text, "line");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}
