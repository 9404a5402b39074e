import {
  findNodeAtLocation,
  format,
  modify,
  parse,
  parseTree,
  type Edit,
  type FormattingOptions,
  type JSONPath,
  type Node,
} from "jsonc-parser";
import { isHookNotifyHandler } from "./hook-command.js";
import { findInvocation } from "./hook-invocation.js";
import { isRecord } from "./hook-schema.js";

/** The text being edited plus its formatting; undefined formatting: a one-line file, kept minified. */
export interface Doc {
  text: string;
  formatting: FormattingOptions | undefined;
}

/** One of our handlers: the matcher group it sits in and its index there. */
export interface Found {
  group: number;
  handler: number;
  value: Record<string, unknown>;
}

// Keeps the file's own indentation and line ends for everything we insert; a file written on one
// line (minified) gets minified insertions, so it stays one line. Blank and {} get 2 spaces.
export function detectFormatting(text: string): FormattingOptions | undefined {
  const isEmpty = /^\s*(?:\{\s*\})?\s*$/.test(text); // nothing to keep: indent as usual
  if (!isEmpty && !text.trimEnd().includes("\n")) return undefined;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = /^([ \t]+)["{[\]}]/m.exec(text)?.[1] ?? "  ";
  if (indent.startsWith("\t")) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent.length, eol };
}

// Sets (or with undefined removes) one value, leaving every other byte of the text as it was.
// Linear in the file's size: one splice, then formatting of the changed stretch only, applied in
// one pass (jsonc-parser's own formatting re-indents whole lines, one splice of the file per edit).
export function setValue(doc: Doc, path: JSONPath, value: unknown, append = false): Doc {
  const edit = rawEdit(doc, path, value, append);
  if (edit === undefined) return doc;
  const text = applySorted(doc.text, [edit]);
  if (doc.formatting === undefined) return { ...doc, text };
  return { ...doc, text: applySorted(text, formatEdits(text, edit, doc.formatting)) };
}

// The one unformatted edit of a change, as jsonc-parser computes it (minified value), except
// removing an array's last item, which jsonc-parser gets wrong on one line ("[1, 22]" → "[12]").
function rawEdit(doc: Doc, path: JSONPath, value: unknown, append: boolean): Edit | undefined {
  const last = path.at(-1);
  if (value === undefined && typeof last === "number") return removeItem(doc.text, path, last);
  const [edit] = modify(doc.text, path, value, { isArrayInsertion: append });
  if (edit === undefined || doc.formatting !== undefined) return edit;
  return { ...edit, content: edit.content.replace(/^(,?"(?:[^"\\]|\\.)*"): /, "$1:") };
}

// An array item out, with the comma between it and a neighbour; the layout around stays.
function removeItem(text: string, path: JSONPath, index: number): Edit | undefined {
  const array = findNodeAtLocation(parseTree(text) as Node, path.slice(0, -1));
  const items = array?.type === "array" ? (array.children ?? []) : [];
  const item = items[index];
  if (array === undefined || item === undefined) return undefined;
  const previous = items[index - 1];
  const next = items[index + 1];
  if (next !== undefined)
    return { offset: item.offset, length: next.offset - item.offset, content: "" };
  if (previous === undefined)
    return { offset: array.offset + 1, length: array.length - 2, content: "" };
  const from = previous.offset + previous.length;
  return { offset: from, length: item.offset + item.length - from, content: "" };
}

// The formatter's edits for the whitespace in and right around one edit, nothing further: their
// number grows with what we inserted, never with the size of the file. Exported for its test.
export function formatEdits(text: string, edit: Edit, formatting: FormattingOptions): Edit[] {
  const start = Math.max(0, edit.offset - 1);
  // Through the whitespace after the edit to the next token, so the layout between them is fixed
  // too; the formatter would trim whitespace that ends its stretch as the end of the text.
  let end = edit.offset + edit.content.length;
  while (end < text.length && " \t\r\n".includes(text.charAt(end))) end++;
  end = end < text.length ? end + 1 : edit.offset + edit.content.length;
  return format(text, { offset: start, length: end - start }, { ...formatting, keepLines: false });
}

// Applies non-overlapping edits sorted by offset in one pass (V8 joins the slices without copying).
function applySorted(text: string, edits: readonly Edit[]): string {
  let out = "";
  let at = 0;
  for (const edit of edits) {
    out += text.slice(at, edit.offset) + edit.content;
    at = edit.offset + edit.length;
  }
  return out + text.slice(at);
}

/** The last text parsed by valueAt: a plan reads the same text several times between edits. */
let lastParsed: { text: string; data: unknown } | undefined;

// Reads the value at a path of the current text (lenient: comments allowed).
export function valueAt(doc: Doc, path: JSONPath): unknown {
  if (lastParsed?.text !== doc.text) {
    lastParsed = { text: doc.text, data: parse(doc.text, [], { allowTrailingComma: true }) };
  }
  return valueIn(lastParsed.data, path);
}

// Reads the value at a path of parsed data.
export function valueIn(data: unknown, path: JSONPath): unknown {
  let value = data;
  for (const key of path) {
    if (Array.isArray(value) && typeof key === "number") value = value[key];
    else if (isRecord(value) && typeof key === "string") value = value[key];
    else return undefined;
  }
  return value;
}

// Lists our handlers in an event's matcher groups, in file order.
export function findOurs(groups: unknown): Found[] {
  if (!Array.isArray(groups)) return [];
  const found: Found[] = [];
  groups.forEach((group: unknown, g) => {
    if (!isRecord(group) || !Array.isArray(group["hooks"])) return;
    group["hooks"].forEach((handler: unknown, h) => {
      if (isOurHandler(handler)) found.push({ group: g, handler: h, value: handler });
    });
  });
  return found;
}

// A command handler whose program is hook-notify (any path, launcher or timeout; exec form too).
export function isOurHandler(handler: unknown): handler is Record<string, unknown> {
  if (!isRecord(handler) || handler["type"] !== "command") return false;
  const command = handler["command"];
  if (typeof command !== "string") return false;
  // Exec form (Claude Code's `args`): the program and its arguments, no shell line to search.
  if (Array.isArray(handler["args"])) return isHookNotifyHandler(command, handler["args"]);
  return findInvocation(command) !== undefined;
}

// Removes one of our handlers, and its matcher group and event list when they end up empty (the
// list stays when `keepList`: the file had it before install).
export function removeHandler(doc: Doc, eventPath: JSONPath, found: Found, keepList = false): Doc {
  const groupPath = [...eventPath, found.group];
  const hooks = valueAt(doc, [...groupPath, "hooks"]);
  const isLast = Array.isArray(hooks) && hooks.length === 1;
  let next = setValue(doc, isLast ? groupPath : [...groupPath, "hooks", found.handler], undefined);
  const groups = valueAt(next, eventPath);
  if (!keepList && Array.isArray(groups) && groups.length === 0) {
    next = setValue(next, eventPath, undefined);
  }
  return next;
}
