// How `hook-notify usage` writes its tables for people: column names with their unit instead of
// the API's field names, counts with thousands separators, numbers aligned on the right, so a
// week of credits reads as 1,516,630 under CREDITS, not 1516630 under BILLABLE_TOKENS.
import { own } from "../own.js";

/** Headers of the fields the tables show (others: the field name in words). */
const LABELS: Record<string, string> = {
  billable_tokens: "CREDITS",
  input_tokens: "INPUT TOKENS",
  output_tokens: "OUTPUT TOKENS",
  cache_read_tokens: "CACHE-READ TOKENS",
  cache_write_tokens: "CACHE-WRITE TOKENS",
  tool_calls: "TOOL CALLS",
  skills_invocations: "SKILL RUNS",
  hooks_invocations: "HOOK RUNS",
  autonomy_ratio_avg: "TOOL CALLS/TURN (AVG)",
  daily_active_users: "ACTIVE USERS",
  sessions: "SESSIONS",
  messages: "MESSAGES",
  user_messages: "USER MESSAGES",
  files_created: "FILES CREATED",
  files_edited: "FILES EDITED",
  git_commits: "COMMITS",
  git_prs_created: "PRS",
  primary_model: "MAIN MODEL",
};

// The header of a field: its label, else the field's words in capitals.
export function labelOf(field: string): string {
  return own(LABELS, field) ?? field.replaceAll("_", " ").toUpperCase();
}

// A number as a person reads it: 1,516,630; 4.20 (two decimals when not whole).
export function readableNumber(value: number): string {
  return Number.isInteger(value)
    ? value.toLocaleString("en-US")
    : value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

// Pads the cells of `columns` (header included) on the left to the column's width, so that
// formatTable's left-aligned columns come out right-aligned.
export function alignRight(
  header: string[],
  rows: string[][],
  columns: readonly number[],
): { header: string[]; rows: string[][] } {
  const all = [header, ...rows];
  const padded = all.map((row) => [...row]);
  for (const i of columns) {
    const width = Math.max(...all.map((row) => (row[i] ?? "").length));
    for (const row of padded) if (row[i] !== undefined) row[i] = row[i].padStart(width);
  }
  const [first = [], ...rest] = padded;
  return { header: first, rows: rest };
}
