import { isDeepStrictEqual } from "node:util";
import { isRecord } from "./hook-schema.js";
import { findOurs, isOurHandler } from "./jsonc-edit.js";
import type { HooksFileShape } from "./hooks-file-shape.js";
import { setOwn } from "../own.js";

// Reading hooks through a shape the caller resolved (settings/shapes.ts maps an id to its shape).

// The event map inside a parsed file, as its shape reads it.
export function eventMapOf(root: unknown, shape: HooksFileShape): unknown {
  return shape.eventMap(root);
}

// The keys from a file's root down to its event map: [] when the root is the map.
export function mapPathOf(shape: HooksFileShape): readonly string[] {
  return shape.mapPath ?? [];
}

// Events of one file that run hook-notify; a file we cannot parse counts as none.
export function eventsWithOurs(text: string | undefined, shape: HooksFileShape): string[] {
  if (text === undefined) return [];
  const map = shape.eventMap(shape.read(text));
  if (!isRecord(map)) return [];
  return Object.keys(map).filter((event) => findOurs(map[event]).length > 0);
}

// Says what is wrong with the parts install would touch, so it refuses before writing anything.
export function findShapeConflicts(
  root: unknown,
  shape: HooksFileShape,
  events: readonly string[],
  shown: string,
): string[] {
  if (!isRecord(root)) return [`${shown}: the file is not a JSON object. Fix it, then run again.`];
  const unfit = shape.conflicts?.(root, shown) ?? [];
  if (unfit.length > 0) return unfit;
  const map = eventMapOf(root, shape);
  if (!isRecord(map)) return [`${shown}: "hooks" is not an object. Fix it, then run again.`];
  const conflicts: string[] = [];
  for (const event of events) {
    const groups = map[event];
    if (groups === undefined) continue;
    const where = [...mapPathOf(shape), event].join(".");
    if (!Array.isArray(groups)) {
      conflicts.push(`${shown}: ${where} is not a list of matcher groups. Fix it, then run again.`);
      continue;
    }
    groups.forEach((group: unknown, index) => {
      if (!isRecord(group) || !Array.isArray(group["hooks"])) {
        conflicts.push(
          `${shown}: ${where}[${index}] is not a matcher group {"hooks": [...]}. Fix it, then run again.`,
        );
      }
    });
  }
  return conflicts;
}

// The safety net: with our handlers taken out, before and after must hold exactly the same data.
export function findDroppedContent(
  before: unknown,
  after: unknown,
  shape: HooksFileShape,
  shown: string,
): string[] {
  if (isDeepStrictEqual(withoutOurs(before, shape), withoutOurs(after, shape))) return [];
  return [
    `${shown}: the change would lose or alter settings that are not hook-notify's, so nothing was written. Please report this with the file's shape.`,
  ];
}

// A copy of the file's data minus our handlers and the containers that leaves empty.
function withoutOurs(root: unknown, shape: HooksFileShape): unknown {
  if (!isRecord(root)) return root ?? {};
  const map = eventMapOf(root, shape);
  if (!isRecord(map)) return root;
  const cleaned: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(map)) {
    const kept = Array.isArray(value) ? cleanGroups(value) : value;
    if (!Array.isArray(kept) || kept.length > 0) setOwn(cleaned, key, kept);
  }
  const [key] = mapPathOf(shape);
  if (key === undefined) return cleaned;
  const rest = Object.fromEntries(Object.entries(root).filter(([name]) => name !== key));
  return Object.keys(cleaned).length > 0 ? { ...rest, [key]: cleaned } : rest;
}

// Matcher groups minus our handlers; groups left with no handler go too.
function cleanGroups(groups: unknown[]): unknown[] {
  return groups.flatMap((group: unknown) => {
    if (!isRecord(group) || !Array.isArray(group["hooks"])) return [group];
    const hooks = group["hooks"].filter((handler: unknown) => !isOurHandler(handler));
    return hooks.length > 0 ? [{ ...group, hooks }] : [];
  });
}

// Droid project scope: hooks in .factory/settings.json stop firing once .factory/hooks.json exists.
export function hasForeignHooks(root: unknown, shape: HooksFileShape): boolean {
  const map = eventMapOf(root, shape);
  if (!isRecord(map)) return false;
  return Object.values(map).some(
    (groups) => Array.isArray(groups) && cleanGroups(groups).length > 0,
  );
}
