// Flat entries ({"matcher"?, "command", "timeout"?, ...} straight under hooks.<event>, no matcher
// groups) in a file the client shares with other tools and settings (Crush's crush.json, Cursor's
// hooks.json): edited where it stands, only hook-notify's own entries added, updated or removed,
// every other entry and key kept byte for byte. A "version" the client requires at the root (its
// adapter's fileVersion) is added with our first entry and taken out with our last.
import { parse, type JSONPath } from "jsonc-parser";
import { adapterFor } from "../clients/index.js";
import { defineShape, type HooksFileShape } from "./hooks-file-shape.js";
import { readJsonLeniently } from "./read.js";
import { hooksFileJob } from "./file-job.js";
import { isRecord } from "./hook-schema.js";
import { findOurs, setValue, valueAt, valueIn, type Doc } from "./jsonc-edit.js";
import { isPlainInvocation, matchByKind, pushChange, refreshHandler } from "./handler-edit.js";
import {
  editSafely,
  finish,
  startDoc,
  withNotes,
  type Before,
  type Change,
  type Desired,
  type PlanFile,
  type SettingsPlan,
  type Wanted,
} from "./plan.js";

const KEY = "hooks";
const VERSION = "version";

// Each entry read as a matcher group of one handler (a command unless it names another type), so
// the code that lists and checks entries (doctor, duplicates, the safety net) reads it as any
// other shape's. The whole entry stays in the handler: nothing of another tool's is lost to it.
export function entriesEventMap(root: unknown): unknown {
  if (!isRecord(root)) return undefined;
  const hooks = root[KEY];
  if (hooks === undefined) return {};
  if (!isRecord(hooks)) return hooks;
  return Object.fromEntries(
    Object.entries(hooks).map(([event, list]) => [
      event,
      Array.isArray(list) ? asGroups(list) : list,
    ]),
  );
}

function asGroups(list: unknown): unknown[] {
  if (!Array.isArray(list)) return [];
  return list.map((entry: unknown) =>
    isRecord(entry) ? { hooks: [{ type: "command", ...entry }] } : entry,
  );
}

// A flat list holds entries, not matcher groups: said in the flat shape's words.
function entryConflicts(root: Record<string, unknown>, shown: string): string[] {
  const hooks = root[KEY];
  if (hooks === undefined) return [];
  if (!isRecord(hooks)) return [`${shown}: "hooks" is not an object. Fix it, then run again.`];
  const conflicts: string[] = [];
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) {
      conflicts.push(
        `${shown}: hooks.${event} is not a list of hook entries. Fix it, then run again.`,
      );
      continue;
    }
    list.forEach((entry: unknown, index) => {
      if (!isRecord(entry)) {
        conflicts.push(
          `${shown}: hooks.${event}[${index}] is not a hook entry {"command": ...}. Fix it, then run again.`,
        );
      }
    });
  }
  return conflicts;
}

/** Where install and uninstall report: the changes, the notes for the person, the file's name. */
interface Log {
  changes: Change[];
  notes: string[];
  shown: string;
}

// Adds or updates our one entry per event (and the version the client requires); a second run
// with the same input changes nothing.
export function planEntriesInstall(
  text: string | undefined,
  desired: Desired,
  file: PlanFile,
  version: number | undefined,
): SettingsPlan {
  const start = startDoc(text);
  const parsed: unknown = parse(start.text, [], { allowTrailingComma: true });
  const declared = valueIn(parsed, [VERSION]);
  if (version !== undefined && declared !== undefined && declared !== version) {
    const conflict = `${file.shown}: "version" is ${JSON.stringify(declared)}, and hook-notify writes version ${version} entries. Fix the version, then run again.`;
    return { next: text, changes: [], conflicts: [conflict] };
  }
  return editSafely(text, file, start, parsed, [...desired.keys()], ({ changes, notes }) => {
    let doc = start;
    let compared = parsed;
    // First, so that a new file starts with it, as the client's own documentation writes it.
    if (version !== undefined && declared === undefined) {
      doc = setValue(doc, [VERSION], version);
      compared = isRecord(parsed) ? { ...parsed, [VERSION]: version } : parsed;
      changes.push({ event: VERSION, action: "added" });
    }
    for (const [event, wanted] of desired) {
      doc = installEntries(doc, [KEY, event], wanted, event, { changes, notes, shown: file.shown });
    }
    return withNotes(finish(text, doc, compared, changes, file), notes);
  });
}

// One event: ours matched to the wanted entries by kind (handler-edit.ts matchByKind). A matched
// one is updated in place and keeps what the user added to its command (VAR=1 before it, 2>>log
// after it) and its other keys (a name, a matcher); ours left over go; the rest are appended.
function installEntries(
  doc: Doc,
  path: JSONPath,
  wanted: readonly Wanted[],
  event: string,
  log: Log,
): Doc {
  const { pairs, extra } = matchByKind(findOurs(asGroups(valueAt(doc, path))), wanted);
  let next = doc;
  for (const { wanted: handler, found } of pairs) {
    if (found === undefined) continue;
    next = refreshHandler(next, [...path, found.group], found.value, handler, { event, ...log });
  }
  for (const { found, action } of extra) {
    next = setValue(next, [...path, found.group], undefined);
    pushChange(log.changes, { event, action });
  }
  for (const { wanted: handler, found } of pairs) {
    if (found !== undefined) continue;
    const entry = { command: handler.command, timeout: handler.timeout };
    pushChange(log.changes, { event, action: "added" });
    const list = valueAt(next, path);
    next = Array.isArray(list)
      ? setValue(next, [...path, -1], entry, true)
      : setValue(next, path, [entry]);
  }
  return next;
}

// Removes our entries (all events, or the given ones), an event list and "hooks" our removal
// empties, and the version install added once nothing else is left; what the file had before
// install (`before`, from its .bak) stays.
export function planEntriesUninstall(
  text: string | undefined,
  events: readonly string[] | undefined,
  file: PlanFile,
  version: number | undefined,
  before?: Before,
): SettingsPlan {
  if (text === undefined) return { next: undefined, changes: [], conflicts: [] };
  const start = startDoc(text);
  const parsed: unknown = parse(start.text, [], { allowTrailingComma: true });
  const map = valueIn(parsed, [KEY]);
  const names =
    events ?? (isRecord(map) ? Object.keys(map).filter((k) => Array.isArray(map[k])) : []);
  return editSafely(text, file, start, parsed, [], ({ changes, notes }) => {
    const had = (path: JSONPath): boolean =>
      before !== undefined && valueIn(before.data, path) !== undefined;
    let doc = start;
    for (const event of names) {
      const path = [KEY, event];
      const found = findOurs(asGroups(valueAt(doc, path))).reverse();
      const removable = found.filter((one) =>
        isPlainInvocation(one, `${file.shown}: ${event}`, notes),
      );
      for (const one of removable) doc = setValue(doc, [...path, one.group], undefined);
      if (removable.length === 0) continue;
      changes.push({ event, action: "removed" });
      const list = valueAt(doc, path);
      if (!had(path) && Array.isArray(list) && list.length === 0)
        doc = setValue(doc, path, undefined);
    }
    let compared = parsed;
    if (changes.length > 0 && !had([KEY]) && isEmptyObject(valueAt(doc, [KEY]))) {
      doc = setValue(doc, [KEY], undefined);
    }
    const root = valueAt(doc, []);
    const onlyVersion = isRecord(root) && Object.keys(root).join() === VERSION;
    if (changes.length > 0 && version !== undefined && onlyVersion && !had([VERSION])) {
      doc = setValue(doc, [VERSION], undefined);
      compared = isRecord(parsed) ? withoutKey(parsed, VERSION) : parsed;
    }
    return withNotes(finish(text, doc, compared, changes, file, before), notes);
  });
}

function isEmptyObject(value: unknown): boolean {
  return isRecord(value) && Object.keys(value).length === 0;
}

function withoutKey(value: Record<string, unknown>, key: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([name]) => name !== key));
}

// Flat entries under "hooks" in a shared JSON file, edited in place; comments as the client's
// adapter says (acceptsJsonc), checked by the job like every file edited in place.
export const entriesShape: HooksFileShape = defineShape({
  id: "entries",
  read: readJsonLeniently,
  eventMap: entriesEventMap,
  mapPath: [KEY],
  comments: "client",
  conflicts: entryConflicts,
  installJob: (input, desired) => {
    const shape = entriesShape;
    const version = adapterFor(input.target.client).fileVersion;
    return hooksFileJob(input, shape, (text, shown) =>
      planEntriesInstall(text, desired, { shape, shown, mayDelete: false }, version),
    );
  },
  uninstallJob: (input, events) => {
    const shape = entriesShape;
    const version = adapterFor(input.target.client).fileVersion;
    return hooksFileJob(input, shape, (text, shown, before) =>
      planEntriesUninstall(text, events, { shape, shown, mayDelete: true }, version, before),
    );
  },
});
