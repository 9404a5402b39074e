// Outside text (titles, names, errors from the service) as table cells for a terminal: one line,
// bounded; times as UTC minutes. The terminal edge (inert-output.ts) neutralises escapes.
import { oneLine } from "../message/text.js";

// One line of outside text for a table cell.
export function cell(text: string, max = 80): string {
  const line = oneLine(text);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

// Unix milliseconds → "2026-11-25 08:40Z"; "?" when unknown.
export function timeOf(ms: number | undefined | null): string {
  if (ms === undefined || ms === null) return "?";
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")}Z`;
}
