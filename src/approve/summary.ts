// What the agent asks to do, for the phone and the log: every argument of the tool input, one line
// each, what would run first. The tool input is agent text (an MCP tool's schema often ignores
// unknown keys, so a harmless `query` can sit beside the `sql` that acts): it only ever becomes
// plain text inside a JSON string, in the "line" form of shown-text.ts, so what the phone shows
// is what runs: no hidden argument, no hidden line, no reordering, no gap.
import { truncate } from "../message/text.js";
import { once } from "../once.js";
import { countHidden, INERT_MARK, inertText } from "../shown-text.js";

/** One argument of the tool input as the phone shows it. */
export interface ShownArgument {
  /** Where it sits in the input: `command`, `edits[0].old_string`, `["odd key"]`; made inert. */
  path: string;
  /** The value on one line; newlines as ⏎, hidden characters as INERT_MARK, cut with a mark. */
  text: string;
  /** The value's length in characters (code points), as it will run (a string) or as JSON. */
  length: number;
  /** How many characters `text` shows as INERT_MARK (controls, bidi, invisible). */
  hidden: number;
  /** True when `text` does not show the whole value ("" when the request was too large). */
  isCut: boolean;
}

/** What the phone shows about one permission request: every argument, what would run first. */
export interface RequestSummary {
  tool: string;
  /** Every argument of the input, in the order shown. */
  args: ShownArgument[];
  /** How many arguments the input has; more than `args` when even their paths did not fit. */
  total: number;
  /** Arguments whose value is not shown for room (too large to show whole when not 0). */
  leftOut: number;
}

// A value longer than this is cut; the arguments together get at most BUDGET bytes of UTF-8, so
// the whole question stays inside ntfy's 4,096-byte message and Telegram's 4,096 characters.
const MAX_VALUE = 500;
const BUDGET = 3000;
const MAX_DEPTH = 16;
const MAX_PATH = 200;
// What would run, first, in this order; then every other argument sorted by its path.
const FIRST = [
  "command",
  "file_path",
  "notebook_path",
  "path",
  "url",
  "query",
  "pattern",
  "prompt",
];

// Every argument of the tool input, each one line, the ones that say what would run first.
export function summarizeRequest(toolName: unknown, toolInput: unknown): RequestSummary {
  const tool =
    typeof toolName === "string" && toolName !== "" ? oneLineSafe(toolName, 80) : "a tool";
  const leaves: [string, string][] = [];
  flatten(toolInput && typeof toolInput === "object" ? toolInput : {}, "", 0, leaves);
  leaves.sort(byWhatRuns);
  // Every path first (while the paths alone fit), then the values in order while they fit.
  const all = leaves.map(([path, raw]) => {
    const full = { path: truncate(inertText(path, "line"), MAX_PATH), ...shownValue(raw) };
    const bare = { ...full, text: "", isCut: true };
    return { full, bare, cost: lineBytes(bare) };
  });
  let room = BUDGET;
  const listed: typeof all = [];
  for (const arg of all) {
    if (arg.cost > room) break;
    room -= arg.cost;
    listed.push(arg);
  }
  const args = listed.map(({ full, bare, cost }) => {
    const extra = lineBytes(full) - cost;
    if (extra > room) return bare;
    room -= extra;
    return full;
  });
  const leftOut = leaves.length - args.filter((arg) => arg.text !== "" || !arg.isCut).length;
  return { tool, args, total: leaves.length, leftOut };
}

function lineBytes(arg: ShownArgument): number {
  return Buffer.byteLength(argumentLine(arg)) + 1;
}

// The phone's lines: one per argument ("command (41 characters): …"), a warning when something
// in it cannot be shown as it is, and first a line saying so when the request is too large.
export function headline(summary: RequestSummary): string {
  if (summary.args.length === 0) return "input (0 characters): {}";
  const lines = summary.args.map((arg) => inOrder(argumentLine(arg)));
  if (summary.leftOut === 0) return lines.join("\n");
  const unlisted = summary.total - summary.args.length;
  const note = `⚠ too large to show whole: ${count(summary.leftOut, "of", summary.total)} arguments not shown; check at the terminal`;
  const more = unlisted === 0 ? [] : [`… and ${unlisted.toLocaleString("en-US")} more arguments`];
  return [lines[0], note, ...lines.slice(1), ...more].join("\n");
}

function argumentLine(arg: ShownArgument): string {
  const hidden =
    arg.hidden === 0
      ? ""
      : `; ${arg.hidden.toLocaleString("en-US")} ${arg.hidden === 1 ? "hidden character" : "hidden characters"} shown as ${INERT_MARK}`;
  const head = `${arg.path} (${arg.length.toLocaleString("en-US")} ${arg.length === 1 ? "character" : "characters"}${hidden})`;
  if (arg.isCut && arg.text === "") return `${head}: [not shown]`;
  return `${head}: ${arg.text}`;
}

function count(part: number, word: string, whole: number): string {
  return `${part.toLocaleString("en-US")} ${word} ${whole.toLocaleString("en-US")}`;
}

// A value on one line, inert, cut after MAX_VALUE characters with how much was left out.
function shownValue(raw: string): Omit<ShownArgument, "path"> {
  const shown = { length: Array.from(raw).length, hidden: countHidden(raw) };
  const points = Array.from(inertText(raw, "line"));
  if (points.length <= MAX_VALUE) return { ...shown, text: points.join(""), isCut: false };
  const more = points.length - MAX_VALUE;
  const text = `${points.slice(0, MAX_VALUE).join("")} … [${more.toLocaleString("en-US")} more characters not shown: check at the terminal]`;
  return { ...shown, text, isCut: true };
}

// Leaves with their paths: strings as they are, numbers, booleans and null as JSON, an empty
// object or array as `{}` / `[]`; below MAX_DEPTH the rest as compact JSON.
function flatten(value: unknown, path: string, depth: number, out: [string, string][]): void {
  if (value === null || typeof value !== "object") {
    out.push([path === "" ? "input" : path, typeof value === "string" ? value : json(value)]);
    return;
  }
  const entries = Array.isArray(value)
    ? value.map((item, index): [string, unknown] => [`${path}[${index}]`, item])
    : Object.entries(value).map(([key, item]): [string, unknown] => [step(path, key), item]);
  if (entries.length === 0 || depth >= MAX_DEPTH) {
    out.push([path === "" ? "input" : path, json(value)]);
    return;
  }
  for (const [at, item] of entries) flatten(item, at, depth + 1, out);
}

function step(path: string, key: string): string {
  if (/^[A-Za-z_][\w-]*$/.test(key)) return path === "" ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

function byWhatRuns([a]: [string, string], [b]: [string, string]): number {
  const rank = (path: string) => {
    const at = FIRST.indexOf(/^[^.[]*/.exec(path)?.[0] ?? "");
    return at === -1 ? FIRST.length : at;
  };
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

// Right-to-left letters (Hebrew, Arabic, Syriac, Thaana, N'Ko and the other RTL scripts). Built
// on first use: a regular expression with property escapes costs V8 1-2 M instructions or more to
// make.
const rtlRun = once(
  () =>
    /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}\p{Script=Old_Hungarian}\p{Script=Imperial_Aramaic}\p{Script=Phoenician}\p{Script=Kharoshthi}\p{Script=Avestan}\p{Script=Yezidi}\p{Script=Mende_Kikakui}]+/gu,
);
const LRM = "\u200E";

// Shown in the order it runs. The Unicode bidi algorithm lays neighbouring right-to-left words
// out right to left even with no control character in the text: `rm "אב" "גד"` would read
// `rm "גד" "אב"`, the arguments swapped. A left-to-right mark after each right-to-left run ends
// it there, so on a left-to-right line (the summary starts with its Latin label) every run
// stands where it is in the command; a word still reads right to left inside itself.
export function inOrder(text: string): string {
  return text.replace(rtlRun(), (run) => `${run}${LRM}`);
}

// The log keeps the same text as the phone, on one line.
export function logSummary(summary: RequestSummary): string {
  return `${summary.tool}: ${headline(summary).replaceAll("\n", " · ")}`;
}

function oneLineSafe(text: string, max: number): string {
  return truncate(inertText(text, "line"), max);
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
