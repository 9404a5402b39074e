// Plain-text hygiene shared by every rendering: inert outside text, bounded length.
import { inertText } from "../shown-text.js";

// Outside text for a notification (shown-text.ts): no escapes, controls, separators, bidi or
// invisible characters; newlines and tabs kept.
export function stripControl(text: string): string {
  return inertText(text, "notification");
}

// One line: every run of white space (newlines too) becomes a single space.
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

// Cuts text to at most `max` code points, ending with an ellipsis when it was cut.
export function truncate(text: string, max: number): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  return `${points
    .slice(0, Math.max(0, max - 1))
    .join("")
    .trimEnd()}…`;
}

// "3m 12s", "1h 4m", "0.8s": a duration a person reads at a glance.
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}
