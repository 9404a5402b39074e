// A safe, one-line description of what the agent asks to do, for the phone and the log. The tool
// input is agent text: it only ever becomes plain text inside a JSON string, in the "line" form of
// shown-text.ts, so what the phone shows is what runs: no hidden line, no reordering, no gap.
import { truncate } from "../message/text.js";
import { countHidden, INERT_MARK, inertText } from "../shown-text.js";

/** What the phone shows about one permission request. */
export interface RequestSummary {
  tool: string;
  /** "command", "file", "url", …: what `text` is. */
  label: string;
  /** One line; newlines shown as ⏎, hidden characters as INERT_MARK, cut with a warning when long. */
  text: string;
  /** The input's length in characters (code points), as it will run. */
  length: number;
  /** How many characters `text` shows as INERT_MARK (controls, bidi, invisible). */
  hidden: number;
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
  const shown = { tool, label, length: Array.from(raw).length, hidden: countHidden(raw) };
  const clean = inertText(raw, "line");
  const points = Array.from(clean);
  if (points.length <= MAX_TEXT) return { ...shown, text: clean, isCut: false };
  const more = points.length - MAX_TEXT;
  const text = `${points.slice(0, MAX_TEXT).join("")} … [${more.toLocaleString("en-US")} more characters not shown: check at the terminal]`;
  return { ...shown, text, isCut: true };
}

// "command (41 characters): …", and a warning when something in it cannot be shown as it is.
export function headline(summary: RequestSummary): string {
  const count = (n: number, what: string) => `${n.toLocaleString("en-US")} ${what}`;
  const hidden =
    summary.hidden === 0
      ? ""
      : `; ${count(summary.hidden, summary.hidden === 1 ? "hidden character" : "hidden characters")} shown as ${INERT_MARK}`;
  return `${summary.label} (${count(summary.length, "characters")}${hidden}): ${inOrder(summary.text)}`;
}

// Right-to-left letters (Hebrew, Arabic, Syriac, Thaana, N'Ko and the other RTL scripts).
const RTL_RUN =
  /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}\p{Script=Old_Hungarian}\p{Script=Imperial_Aramaic}\p{Script=Phoenician}\p{Script=Kharoshthi}\p{Script=Avestan}\p{Script=Yezidi}\p{Script=Mende_Kikakui}]+/gu;
const LRM = "\u200E";

// Shown in the order it runs. The Unicode bidi algorithm lays neighbouring right-to-left words
// out right to left even with no control character in the text: `rm "אב" "גד"` would read
// `rm "גד" "אב"`, the arguments swapped. A left-to-right mark after each right-to-left run ends
// it there, so on a left-to-right line (the summary starts with its Latin label) every run
// stands where it is in the command; a word still reads right to left inside itself.
export function inOrder(text: string): string {
  return text.replace(RTL_RUN, (run) => `${run}${LRM}`);
}

// The few words the log keeps: tool and the start of its text.
export function logSummary(summary: RequestSummary): string {
  return truncate(`${summary.tool}: ${summary.text}`, 80);
}

function oneLineSafe(text: string, max: number): string {
  return truncate(inertText(text, "line"), max);
}

function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return "";
  }
}
