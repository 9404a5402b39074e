import { parseTree, type Node } from "jsonc-parser";
import type { HooksFileShape } from "./hooks-file-shape.js";
import { mapPathOf } from "./file-shape.js";

// Clients read settings with JSON.parse, which keeps the last of two equal keys, while a text edit
// lands on the first: with a duplicate on the way to our entries, install would edit the copy the
// client ignores. Duplicates elsewhere are left alone: we never edit there, so nothing changes.
export function findDuplicateKeys(text: string, shape: HooksFileShape, shown: string): string[] {
  const root = parseTree(text, [], { allowTrailingComma: true });
  if (root?.type !== "object") return [];
  const found: string[] = [];
  const check = (node: Node, where: string): void => {
    for (const key of duplicatesIn(node)) found.push(`${where}"${key}"`);
  };
  const [key] = mapPathOf(shape);
  if (key !== undefined && duplicatesIn(root).includes(key)) found.push(`"${key}"`);
  const maps = key === undefined ? [root] : valuesOf(root, key);
  for (const map of maps) {
    const mapWhere = key === undefined ? "" : `${key}.`;
    check(map, mapWhere); // in hooks.json this is the root
    for (const property of map.children ?? []) {
      const event = String(property.children?.[0]?.value);
      for (const group of objectItems(property.children?.[1])) {
        check(group, `${mapWhere}${event}[].`);
        for (const handlers of valuesOf(group, "hooks")) {
          for (const handler of objectItems(handlers))
            check(handler, `${mapWhere}${event}[].hooks[].`);
        }
      }
    }
  }
  return found.length === 0
    ? []
    : [
        `${shown}: the key ${found.join(", ")} appears twice in one object; the client reads only the last one. Merge the two into one, then run again.`,
      ];
}

// The keys of an object node that occur more than once.
function duplicatesIn(node: Node): string[] {
  if (node.type !== "object") return [];
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const property of node.children ?? []) {
    const key = String(property.children?.[0]?.value);
    if (seen.has(key)) twice.add(key);
    seen.add(key);
  }
  return [...twice];
}

// The object values of every property named `key` (one, unless the key is duplicated).
function valuesOf(node: Node, key: string): Node[] {
  if (node.type !== "object") return [];
  return (node.children ?? [])
    .filter((property) => property.children?.[0]?.value === key)
    .flatMap((property) => {
      const value = property.children?.[1];
      return value?.type === "object" || value?.type === "array" ? [value] : [];
    });
}

// The object items of an array node.
function objectItems(node: Node | undefined): Node[] {
  if (node?.type !== "array") return [];
  return (node.children ?? []).filter((item) => item.type === "object");
}
