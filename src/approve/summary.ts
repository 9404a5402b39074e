// A short, safe, one-line description of what the agent asks to do, for the phone and the log.
// The tool input is agent text: it only ever becomes plain text inside a JSON string.
import { stripControl, truncate } from "../message/text.js";

/** What the phone shows about one permission request. */
export interface RequestSummary {
  tool: string;
  /** "command", "file", "url", …: what `text` is. */
  label: string;
  /** One line; newlines shown as ⏎, cut with a plain warning when long. */
  text: string;
  /** True when `text` does not show the whole input. */
  isCut: boolean;
}

const MAX_TEXT = 500;
const FIELDS: readonly (readonly [string, string])[] = [
  ["command", "command"],
  ["file_path", "file"],
  ["notebook_path", "file"],
  ["path", "path"],
  ["url", "url"],
  ["query", "query"],
  ["pattern", "pattern"],
  ["prompt", "prompt"],
];

// Bash shows its command, file tools their path, web tools their URL; others their input as JSON.
export function summarizeRequest(toolName: unknown, toolInput: unknown): RequestSummary {
  const tool =
    typeof toolName === "string" && toolName !== "" ? oneLineSafe(toolName, 80) : "a tool";
  const input =
    toolInput && typeof toolInput === "object" ? (toolInput as Record<string, unknown>) : {};
  const found = FIELDS.find(([key]) => typeof input[key] === "string");
  const [label, raw] = found
    ? [found[1], input[found[0]] as string]
    : ["input", compactJson(input)];
  const clean = visibleLines(stripControl(raw));
  const points = Array.from(clean);
  if (points.length <= MAX_TEXT) return { tool, label, text: clean, isCut: false };
  const hidden = points.length - MAX_TEXT;
  const text = `${points.slice(0, MAX_TEXT).join("")} … [${hidden.toLocaleString("en-US")} more characters not shown: check at the terminal]`;
  return { tool, label, text, isCut: true };
}

// The few words the log keeps: tool and the start of its text.
export function logSummary(summary: RequestSummary): string {
  return truncate(`${summary.tool}: ${summary.text}`, 80);
}

// Newlines would push the rest of a command below the fold of a notification: ⏎ keeps it in view.
function visibleLines(text: string): string {
  return text.replace(/\n/g, " ⏎ ").replace(/\t/g, " ");
}

function oneLineSafe(text: string, max: number): string {
  return truncate(visibleLines(stripControl(text)), max);
}

function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return "";
  }
}
