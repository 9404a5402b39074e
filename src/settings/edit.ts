import { applyEdits, modify, parse, type FormattingOptions, type JSONPath } from "jsonc-parser";
import { isHookNotifyHandler } from "./command.js";
import { isRecord } from "./hook-shape.js";

/** A place in the file plus its formatting: everything a minimal text edit needs. */
export interface Doc {
  text: string;
  formatting: FormattingOptions;
}

/** One of our handlers: the matcher group it sits in and its index there. */
export interface Found {
  group: number;
  handler: number;
  value: Record<string, unknown>;
}

// Keeps the file's own indentation and line ends for everything we insert.
export function detectFormatting(text: string): FormattingOptions {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = /^([ \t]+)["{[\]}]/m.exec(text)?.[1] ?? "  ";
  if (indent.startsWith("\t")) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent.length, eol };
}

// Sets (or with undefined removes) one value, leaving every other byte of the text as it was.
export function setValue(doc: Doc, path: JSONPath, value: unknown, append = false): Doc {
  const edits = modify(doc.text, path, value, {
    formattingOptions: doc.formatting,
    isArrayInsertion: append,
  });
  return { ...doc, text: applyEdits(doc.text, edits) };
}

// Reads the value at a path of the current text (lenient: comments allowed).
export function valueAt(doc: Doc, path: JSONPath): unknown {
  let value: unknown = parse(doc.text, [], { allowTrailingComma: true });
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
  return typeof command === "string" && isHookNotifyHandler(command, handler["args"]);
}

// Removes one of our handlers, and its matcher group and event list when they end up empty.
export function removeHandler(doc: Doc, eventPath: JSONPath, found: Found): Doc {
  const groupPath = [...eventPath, found.group];
  const hooks = valueAt(doc, [...groupPath, "hooks"]);
  const isLast = Array.isArray(hooks) && hooks.length === 1;
  let next = setValue(doc, isLast ? groupPath : [...groupPath, "hooks", found.handler], undefined);
  const groups = valueAt(next, eventPath);
  if (Array.isArray(groups) && groups.length === 0) next = setValue(next, eventPath, undefined);
  return next;
}
