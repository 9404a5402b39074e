import { isDeepStrictEqual } from "node:util";
import { copilotEventMap } from "./plan-copilot-file.js";
import { isOurHandler } from "./jsonc-edit.js";
import { opencodeEventMap } from "./plan-opencode-file.js";
import { isRecord } from "./hook-schema.js";
import type { FileShape } from "../core/install-target.js";

// The event map inside a parsed file: root["hooks"] in settings.json, the root in hooks.json.
export function eventMapOf(root: unknown, shape: FileShape): unknown {
  if (shape === "bare") return root;
  if (shape === "copilot") return copilotEventMap(root);
  if (shape === "opencode") return opencodeEventMap(root);
  // Only a missing "hooks" means none yet; "hooks": null is a value we cannot add events to.
  if (!isRecord(root)) return undefined;
  return root["hooks"] === undefined ? {} : root["hooks"];
}

// Says what is wrong with the parts install would touch, so it refuses before writing anything.
export function findShapeConflicts(
  root: unknown,
  shape: FileShape,
  events: readonly string[],
  shown: string,
): string[] {
  if (!isRecord(root)) return [`${shown}: the file is not a JSON object. Fix it, then run again.`];
  if (shape === "bare" && isRecord(root["hooks"])) {
    return [
      `${shown}: the events are wrapped in {"hooks": ...}; droid ignores a wrapped hooks.json. Move the events to the top level, then run again.`,
    ];
  }
  const map = eventMapOf(root, shape);
  if (!isRecord(map)) return [`${shown}: "hooks" is not an object. Fix it, then run again.`];
  const conflicts: string[] = [];
  for (const event of events) {
    const groups = map[event];
    if (groups === undefined) continue;
    const where = shape === "bare" ? event : `hooks.${event}`;
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
  shape: FileShape,
  shown: string,
): string[] {
  if (isDeepStrictEqual(withoutOurs(before, shape), withoutOurs(after, shape))) return [];
  return [
    `${shown}: the change would lose or alter settings that are not hook-notify's, so nothing was written. Please report this with the file's shape.`,
  ];
}

// A copy of the file's data minus our handlers and the containers that leaves empty.
function withoutOurs(root: unknown, shape: FileShape): unknown {
  if (!isRecord(root)) return root ?? {};
  const map = eventMapOf(root, shape);
  if (!isRecord(map)) return root;
  const cleaned: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(map)) {
    const kept = Array.isArray(value) ? cleanGroups(value) : value;
    if (!Array.isArray(kept) || kept.length > 0) cleaned[key] = kept;
  }
  if (shape === "bare") return cleaned;
  const rest = { ...root };
  delete rest["hooks"];
  return Object.keys(cleaned).length > 0 ? { ...rest, hooks: cleaned } : rest;
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
export function hasForeignHooks(root: unknown, shape: FileShape): boolean {
  const map = eventMapOf(root, shape);
  if (!isRecord(map)) return false;
  return Object.values(map).some(
    (groups) => Array.isArray(groups) && cleanGroups(groups).length > 0,
  );
}
