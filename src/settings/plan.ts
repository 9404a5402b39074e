import { parse, type JSONPath } from "jsonc-parser";
import type { CommandHandler } from "./hook-shape.js";
import { isRecord } from "./hook-shape.js";
import { detectFormatting, findOurs, removeHandler, setValue, valueAt, type Doc } from "./edit.js";
import type { FileShape } from "./locate.js";
import { findDuplicateKeys } from "./duplicate-keys.js";
import { eventMapOf, findDroppedContent, findShapeConflicts } from "./shape.js";

/** What happened to one event in one file. */
export interface Change {
  event: string;
  action: "added" | "updated" | "removed" | "removed duplicate";
}

/** The pure result: the next text (undefined: no file), what changed, and why we must refuse. */
export interface Plan {
  next: string | undefined;
  changes: Change[];
  conflicts: string[];
}

/** Which file is planned: its shape, its name for messages, and whether it may be deleted. */
export interface PlanFile {
  shape: FileShape;
  shown: string;
  mayDelete: boolean;
}

/** One handler install wants per event. */
export type Desired = ReadonlyMap<string, CommandHandler>;

// Adds or updates our one handler per event; a second run with the same input changes nothing.
export function planInstall(text: string | undefined, desired: Desired, file: PlanFile): Plan {
  const start = startDoc(text);
  const before: unknown = parse(start.text, [], { allowTrailingComma: true });
  const conflicts = [
    ...findShapeConflicts(before, file.shape, [...desired.keys()], file.shown),
    ...findDuplicateKeys(start.text, file.shape, file.shown),
  ];
  if (conflicts.length > 0) return { next: text, changes: [], conflicts };
  return refuseOnEditFailure(text, file, () => {
    let doc = start;
    const changes: Change[] = [];
    for (const [event, handler] of desired) {
      doc = installEvent(doc, eventPath(file.shape, event), handler, event, changes);
    }
    return finish(text, doc, before, changes, file);
  });
}

// Removes our handlers (all events, or the given ones) and the containers that leaves empty.
export function planUninstall(
  text: string | undefined,
  events: readonly string[] | undefined,
  file: PlanFile,
): Plan {
  if (text === undefined) return { next: undefined, changes: [], conflicts: [] };
  const start = startDoc(text);
  const before: unknown = parse(start.text, [], { allowTrailingComma: true });
  const map = eventMapOf(before, file.shape);
  const names =
    events ?? (isRecord(map) ? Object.keys(map).filter((k) => Array.isArray(map[k])) : []);
  // Only the file and its "hooks" map must be sound: a malformed entry on some event holds none of
  // ours (findOurs skips it), and must not keep hook-notify from being removed everywhere else.
  const conflicts = [
    ...findShapeConflicts(before, file.shape, [], file.shown),
    ...findDuplicateKeys(start.text, file.shape, file.shown),
  ];
  if (conflicts.length > 0) return { next: text, changes: [], conflicts };
  return refuseOnEditFailure(text, file, () => {
    let doc = start;
    const changes: Change[] = [];
    for (const event of names) {
      const path = eventPath(file.shape, event);
      const found = findOurs(valueAt(doc, path)).reverse();
      for (const one of found) doc = removeHandler(doc, path, one);
      if (found.length > 0) changes.push({ event, action: "removed" });
    }
    if (file.shape === "settings" && changes.length > 0) doc = dropEmptyHooks(doc);
    return finish(text, doc, before, changes, file);
  });
}

// The JSONC editor can fail on shapes it was not built for (a 5,000-level nesting overflows the
// stack; its formatter breaks at some indent depths): refuse with the file's name, never crash.
function refuseOnEditFailure(text: string | undefined, file: PlanFile, edit: () => Plan): Plan {
  try {
    return edit();
  } catch (error) {
    const reason = (error as Error).message;
    const conflict = `${file.shown}: hook-notify cannot edit this file safely (${reason}), so nothing was written. Add the entries by hand or simplify the file, then run again.`;
    return { next: text, changes: [], conflicts: [conflict] };
  }
}

// Missing and blank files start as {}; everything else is edited where it stands.
function startDoc(text: string | undefined): Doc {
  const isBlank = text === undefined || text.trim() === "";
  return { text: isBlank ? "{}" : text, formatting: detectFormatting(text ?? "") };
}

function eventPath(shape: FileShape, event: string): JSONPath {
  return shape === "bare" ? [event] : ["hooks", event];
}

// One event: append our handler, or update the first of ours in place and drop the others.
function installEvent(
  doc: Doc,
  path: JSONPath,
  handler: CommandHandler,
  event: string,
  changes: Change[],
): Doc {
  const [first, ...extra] = findOurs(valueAt(doc, path));
  if (first === undefined) {
    const group = { hooks: [handler] };
    const exists = Array.isArray(valueAt(doc, path));
    changes.push({ event, action: "added" });
    return exists ? setValue(doc, [...path, -1], group, true) : setValue(doc, path, [group]);
  }
  let next = doc;
  for (const one of extra.reverse()) next = removeHandler(next, path, one);
  if (extra.length > 0) changes.push({ event, action: "removed duplicate" });
  const handlerPath = [...path, first.group, "hooks", first.handler];
  let isStale = false;
  for (const key of ["command", "timeout"] as const) {
    if (first.value[key] === handler[key]) continue;
    next = setValue(next, [...handlerPath, key], handler[key]);
    isStale = true;
  }
  if (isStale) changes.push({ event, action: "updated" });
  return next;
}

// settings.json: a "hooks" object we emptied goes too.
function dropEmptyHooks(doc: Doc): Doc {
  const hooks = valueAt(doc, ["hooks"]);
  return isRecord(hooks) && Object.keys(hooks).length === 0
    ? setValue(doc, ["hooks"], undefined)
    : doc;
}

// Final checks: nothing foreign lost, a new file ends with a newline, an emptied file goes away.
function finish(
  text: string | undefined,
  doc: Doc,
  before: unknown,
  changes: Change[],
  file: PlanFile,
): Plan {
  if (changes.length === 0) return { next: text, changes, conflicts: [] };
  const after: unknown = parse(doc.text, [], { allowTrailingComma: true });
  const conflicts = findDroppedContent(before, after, file.shape, file.shown);
  if (conflicts.length > 0) return { next: text, changes: [], conflicts };
  if (file.mayDelete && isRecord(after) && Object.keys(after).length === 0) {
    return { next: undefined, changes, conflicts };
  }
  const isNew = text === undefined || text.trim() === "";
  const next = isNew ? doc.text + (doc.formatting?.eol ?? "\n") : doc.text;
  return { next, changes, conflicts };
}
