// One of our handlers (or flat entries) edited where it stands: brought up to date by install,
// or judged removable by uninstall. plan.ts and shape-entries.ts share these.
import { isDeepStrictEqual } from "node:util";
import type { JSONPath } from "jsonc-parser";
import type { CommandHandler } from "./hook-schema.js";
import { findInvocation, mergeCommand } from "./hook-invocation.js";
import { handlerKind } from "./hook-command.js";
import { setValue, type Doc, type Found } from "./jsonc-edit.js";
import type { Change, Wanted } from "./plan.js";

/** Where an edit of one event reports: the event, the changes list and the notes for the person. */
export interface EventLog {
  event: string;
  changes: Change[];
  notes: string[];
  shown: string;
}

/** Brings the first of our handlers (or flat entries) at `at` up to date in place: its command
 * keeps what the user added to it (VAR=1 before it, --config x, 2>>log after it), or is left with
 * a note when it cannot be edited safely; exec form (Claude Code on Windows) holds no shell line
 * to keep customisations from, so it is replaced; the timeout is ours. */
export function refreshHandler(
  doc: Doc,
  at: JSONPath,
  found: Record<string, unknown>,
  handler: CommandHandler,
  log: EventLog,
): Doc {
  const isExec = handler.args !== undefined || Array.isArray(found["args"]);
  const current = String(found["command"]);
  const command = isExec ? handler.command : mergeCommand(current, handler.command);
  if (command === undefined) {
    log.notes.push(
      `${log.shown}: ${log.event}: left as you wrote it, since hook-notify cannot safely edit "${current}"; make sure it runs the current hook-notify with --client and --timeout.`,
    );
  }
  let next = doc;
  let isStale = false;
  for (const [key, value] of [
    ["command", command ?? current],
    ["args", isExec ? handler.args : found["args"]],
    ["timeout", handler.timeout],
  ] as const) {
    if (isDeepStrictEqual(found[key], value)) continue;
    next = setValue(next, [...at, key], value);
    isStale = true;
  }
  if (isStale) pushChange(log.changes, { event: log.event, action: "updated" });
  return next;
}

// Uninstall takes out a handler that only runs hook-notify; one that also runs other commands
// (cd x && hook-notify, sh -c '…') stays, with a note, since the rest of it is the user's.
export function isPlainInvocation(found: Found, where: string, notes: string[]): boolean {
  const command = String(found.value["command"]);
  // Exec form runs one program with its arguments, never other commands.
  if (Array.isArray(found.value["args"])) return true;
  if (findInvocation(command)?.kind === "simple") return true;
  notes.push(
    `${where}: "${command}" runs other commands too, so it was left in place; take hook-notify out of it by hand.`,
  );
  return false;
}

/** Our handlers on one event paired with the ones install wants there, by kind (a notification,
 * an approve ask): each wanted handler updates the first of ours of its kind, else takes over one
 * of ours of a kind not wanted on this event (Codex's PermissionRequest notification becomes the
 * ask, keeping what the user added to it), else is added. Ours left over are removed: a second
 * one of a wanted kind as a duplicate, one of a kind the flags did not ask for as that entry. */
export interface Matched<T> {
  pairs: { wanted: Wanted; found: T | undefined }[];
  /** In reverse file order, so removing one leaves the places of the others as they were. */
  extra: { found: T; action: Change["action"] }[];
}

export function matchByKind<T extends Found>(
  found: readonly T[],
  wanted: readonly Wanted[],
): Matched<T> {
  const kindOf = (one: T) => handlerKind(String(one.value["command"]), one.value["args"]);
  const kinds = wanted.map((handler) => handlerKind(handler.command, handler.args));
  const left = [...found];
  const take = (test: (one: T) => boolean): T | undefined => {
    const at = left.findIndex(test);
    return at < 0 ? undefined : left.splice(at, 1)[0];
  };
  const same = kinds.map((kind) => take((one) => kindOf(one) === kind));
  const pairs = wanted.map((handler, i) => ({
    wanted: handler,
    found: same[i] ?? take((one) => !kinds.includes(kindOf(one))),
  }));
  const extra = left.reverse().map((one) => {
    const kind = kindOf(one);
    const action: Change["action"] = kinds.includes(kind)
      ? "removed duplicate"
      : `removed ${kind} entry`;
    return { found: one, action };
  });
  return { pairs, extra };
}

// One line per event and action: two duplicates removed from one event are one change.
export function pushChange(changes: Change[], change: Change): void {
  const isNew = !changes.some((one) => one.event === change.event && one.action === change.action);
  if (isNew) changes.push(change);
}
