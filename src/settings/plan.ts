import { parse, type JSONPath } from "jsonc-parser";
import type { CommandHandler } from "./hook-schema.js";
import { isRecord } from "./hook-schema.js";
import {
  detectFormatting,
  findOurs,
  removeHandler,
  setValue,
  valueAt,
  valueIn,
  type Doc,
} from "./jsonc-edit.js";
import type { HooksFileShape } from "./hooks-file-shape.js";
import { findDuplicateKeys } from "./duplicate-json-keys.js";
import {
  isPlainInvocation,
  matchByKind,
  pushChange,
  refreshHandler,
  type EventLog,
} from "./handler-edit.js";
import { eventMapOf, findDroppedContent, findShapeConflicts, mapPathOf } from "./file-shape.js";

/** What happened to one event in one file. */
export interface Change {
  event: string;
  action:
    | "added"
    | "updated"
    | "removed"
    | "removed duplicate"
    | "removed notify entry"
    | "removed approve entry";
}

/** The pure result: the next text (undefined: no file), what changed, and why we must refuse. */
export interface SettingsPlan {
  next: string | undefined;
  changes: Change[];
  conflicts: string[];
  /** Entries of ours left as the user wrote them, and why. */
  warnings?: string[];
}

/** Which file is planned: its shape, its name for messages, and whether it may be deleted. */
export interface PlanFile {
  shape: HooksFileShape;
  shown: string;
  mayDelete: boolean;
}

/** The file before hook-notify first came in (its .bak): what uninstall must leave in place. */
export interface Before {
  text: string;
  data: unknown;
}

/** One handler install wants; `matcher` goes on its matcher group, not the handler. */
export type Wanted = CommandHandler & { matcher?: string };

/** The handlers install wants on each event, at most one of each kind (hook-command.ts
 * handlerKind): Claude Code's PermissionDenied can hold the notification and the retry ask. */
export type Desired = ReadonlyMap<string, readonly Wanted[]>;

// Adds or updates our handlers on each event; a second run with the same input changes nothing.
export function planInstall(
  text: string | undefined,
  desired: Desired,
  file: PlanFile,
): SettingsPlan {
  const start = startDoc(text);
  const before: unknown = parse(start.text, [], { allowTrailingComma: true });
  return editSafely(text, file, start, before, [...desired.keys()], ({ changes, notes }) => {
    let doc = start;
    for (const [event, wanted] of desired) {
      const path = eventPath(file.shape, event);
      doc = installEvent(doc, path, wanted, { event, changes, notes, shown: file.shown });
    }
    return withNotes(finish(text, doc, before, changes, file), notes);
  });
}

// Removes our handlers (all events, or the given ones) and the containers that leaves empty,
// except those the file had before install (`before`, from its .bak): an empty "hooks" or
// "SessionEnd": [] stays, and a file that existed stays. Without `before`, every container our
// removal empties goes, and an emptied file too: install created it, or nothing says otherwise.
export function planUninstall(
  text: string | undefined,
  events: readonly string[] | undefined,
  file: PlanFile,
  before?: Before,
): SettingsPlan {
  if (text === undefined) return { next: undefined, changes: [], conflicts: [] };
  const start = startDoc(text);
  const parsed: unknown = parse(start.text, [], { allowTrailingComma: true });
  const map = eventMapOf(parsed, file.shape);
  const names =
    events ?? (isRecord(map) ? Object.keys(map).filter((k) => Array.isArray(map[k])) : []);
  // Only the file and its "hooks" map must be sound: a malformed entry on some event holds none of
  // ours (findOurs skips it), and must not keep hook-notify from being removed everywhere else.
  return editSafely(text, file, start, parsed, [], ({ changes, notes }) => {
    let doc = start;
    const had = (path: JSONPath): boolean =>
      before !== undefined && valueIn(before.data, path) !== undefined;
    for (const event of names) {
      const path = eventPath(file.shape, event);
      const found = findOurs(valueAt(doc, path)).reverse();
      const removable = found.filter((one) =>
        isPlainInvocation(one, `${file.shown}: ${event}`, notes),
      );
      for (const one of removable) doc = removeHandler(doc, path, one, had(path));
      if (removable.length > 0) changes.push({ event, action: "removed" });
    }
    const [key] = mapPathOf(file.shape);
    if (key !== undefined && changes.length > 0 && !had([key])) doc = dropEmptyMap(doc, key);
    return withNotes(finish(text, doc, parsed, changes, file, before), notes);
  });
}

// Refuses a file whose hooks are unsound (their shape for `events`, duplicate keys) before any
// edit. The JSONC editor can fail on shapes it was not built for (a 5,000-level nesting overflows
// the stack; its formatter breaks at some indent depths): refuse with the file's name, never crash.
export function editSafely(
  text: string | undefined,
  file: PlanFile,
  start: Doc,
  parsed: unknown,
  events: string[],
  edit: (log: { changes: Change[]; notes: string[] }) => SettingsPlan,
): SettingsPlan {
  const conflicts = [
    ...findShapeConflicts(parsed, file.shape, events, file.shown),
    ...findDuplicateKeys(start.text, file.shape, file.shown),
  ];
  if (conflicts.length > 0) return { next: text, changes: [], conflicts };
  try {
    return edit({ changes: [], notes: [] });
  } catch (error) {
    const reason = (error as Error).message;
    const conflict = `${file.shown}: hook-notify cannot edit this file safely (${reason}), so nothing was written. Add the entries by hand or simplify the file, then run again.`;
    return { next: text, changes: [], conflicts: [conflict] };
  }
}

// Missing and blank files start as {}; everything else is edited where it stands.
export function startDoc(text: string | undefined): Doc {
  const isBlank = text === undefined || text.trim() === "";
  return { text: isBlank ? "{}" : text, formatting: detectFormatting(text ?? "") };
}

function eventPath(shape: HooksFileShape, event: string): JSONPath {
  return [...mapPathOf(shape), event];
}

// One event: ours matched to the wanted handlers by kind (handler-edit.ts matchByKind). A matched
// one is updated in place and keeps what the user added to its command (VAR=1 before it, --config
// x, 2>>log after it); ours left over go; a wanted one with no match is appended.
function installEvent(doc: Doc, path: JSONPath, wanted: readonly Wanted[], log: EventLog): Doc {
  const { event, changes } = log;
  const { pairs, extra } = matchByKind(findOurs(valueAt(doc, path)), wanted);
  let next = doc;
  for (const { wanted: one, found } of pairs) {
    if (found === undefined) continue;
    const at = [...path, found.group, "hooks", found.handler];
    next = refreshHandler(next, at, found.value, withoutMatcher(one), log);
  }
  for (const { found, action } of extra) {
    next = removeHandler(next, path, found);
    pushChange(changes, { event, action });
  }
  for (const { wanted: one, found } of pairs) {
    if (found !== undefined) continue;
    const handler = withoutMatcher(one);
    const group =
      one.matcher === undefined ? { hooks: [handler] } : { matcher: one.matcher, hooks: [handler] };
    pushChange(changes, { event, action: "added" });
    next = Array.isArray(valueAt(next, path))
      ? setValue(next, [...path, -1], group, true)
      : setValue(next, path, [group]);
  }
  return next;
}

// The handler as written: its matcher goes on the matcher group.
function withoutMatcher(wanted: Wanted): CommandHandler {
  return Object.fromEntries(
    Object.entries(wanted).filter(([key]) => key !== "matcher"),
  ) as CommandHandler;
}

export function withNotes(plan: SettingsPlan, notes: readonly string[]): SettingsPlan {
  return notes.length === 0 ? plan : { ...plan, warnings: [...notes] };
}

// settings.json: a "hooks" object we emptied goes too.
function dropEmptyMap(doc: Doc, key: string): Doc {
  const hooks = valueAt(doc, [key]);
  return isRecord(hooks) && Object.keys(hooks).length === 0 ? setValue(doc, [key], undefined) : doc;
}

// Final checks: nothing foreign lost, a new file ends with a newline, an emptied file goes away.
export function finish(
  text: string | undefined,
  doc: Doc,
  parsed: unknown,
  changes: Change[],
  file: PlanFile,
  before?: Before,
): SettingsPlan {
  if (changes.length === 0) return { next: text, changes, conflicts: [] };
  const after: unknown = parse(doc.text, [], { allowTrailingComma: true });
  const conflicts = findDroppedContent(parsed, after, file.shape, file.shown);
  if (conflicts.length > 0) return { next: text, changes: [], conflicts };
  const isEmpty = isRecord(after) && Object.keys(after).length === 0;
  if (isEmpty && before !== undefined && before.text.trim() === "") {
    return { next: before.text, changes, conflicts }; // it was an empty file: it is one again
  }
  if (isEmpty && file.mayDelete && before === undefined) {
    return { next: undefined, changes, conflicts };
  }
  const isNew = text === undefined || text.trim() === "";
  const next = isNew ? doc.text + (doc.formatting?.eol ?? "\n") : doc.text;
  return { next, changes, conflicts };
}
