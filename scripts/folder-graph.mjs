#!/usr/bin/env node
// The folder-level import graph of src/: who imports whom, and any cycle between folders.
// Each top-level folder of src/ is one node, and each file at the root of src/ is its own node
// (`cli.ts`). Relative imports count: `import`, `import type`, `export … from` and `import()`.
// Used by `node scripts/folder-graph.mjs` (prints the graph) and by
// test/architecture/folder-cycles.test.ts (fails on a cycle).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const SPECIFIER = [
  /\bfrom\s*["'](\.{1,2}\/[^"']+)["']/g,
  /\bimport\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g,
  /\bimport\s*["'](\.{1,2}\/[^"']+)["']/g,
];

// Every .ts file under dir, as paths relative to dir with "/" separators.
export function listSources(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .sort();
}

// The relative specifiers a source imports, block and line comments left out.
export function importsOf(source) {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const found = [];
  for (const pattern of SPECIFIER) {
    for (const match of code.matchAll(pattern)) found.push(match[1]);
  }
  return found;
}

// The node a src-relative file belongs to: its top-level folder, or itself at the root.
export function nodeOf(file) {
  const slash = file.indexOf("/");
  return slash === -1 ? file : file.slice(0, slash);
}

// File-level imports inside dir: [{ from, to }] with both paths relative to dir.
export function fileImports(dir, files = listSources(dir)) {
  const edges = [];
  for (const from of files) {
    for (const spec of importsOf(readFileSync(join(dir, from), "utf8"))) {
      const target = resolve(dir, dirname(from), spec.replace(/\.js$/, ".ts"));
      const to = relative(dir, target).split(sep).join("/");
      if (to.startsWith("..")) continue; // outside src (package.json and the like)
      edges.push({ from, to });
    }
  }
  return edges;
}

// A static import or re-export of values: `import type` and `export type` left out, and import()
// too (a lazy import runs after every module has been evaluated).
const VALUE_IMPORT = /^\s*(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']/gm;

// File-level cycles of value imports inside dir, each a sorted list of files: the order in which
// such files are evaluated decides what a reader sees (a constant read too early is undefined).
export function valueCycles(dir, files = listSources(dir)) {
  const edges = new Map();
  for (const from of files) {
    const code = readFileSync(join(dir, from), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/^\s*\/\/.*$/gm, "");
    for (const match of code.matchAll(VALUE_IMPORT)) {
      const target = resolve(dir, dirname(from), match[1].replace(/\.js$/, ".ts"));
      edges.set(`${from} -> ${relative(dir, target).split(sep).join("/")}`, []);
    }
  }
  return cyclesOf(edges);
}

// Folder-level edges: Map "a -> b" to the file imports behind it (self-edges left out).
export function folderEdges(imports) {
  const edges = new Map();
  for (const { from, to } of imports) {
    const a = nodeOf(from);
    const b = nodeOf(to);
    if (a === b) continue;
    const key = `${a} -> ${b}`;
    edges.set(key, [...(edges.get(key) ?? []), `${from} -> ${to}`]);
  }
  return new Map([...edges].sort(([x], [y]) => x.localeCompare(y)));
}

// Strongly connected components with more than one node (Tarjan): each one is a cycle.
export function cyclesOf(edges) {
  const next = new Map();
  for (const key of edges.keys()) {
    const [a, b] = key.split(" -> ");
    next.set(a, [...(next.get(a) ?? []), b]);
    if (!next.has(b)) next.set(b, []);
  }
  let index = 0;
  const order = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (node) => {
    order.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node)) {
      if (!order.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node), order.get(to)));
      }
    }
    if (low.get(node) !== order.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of [...next.keys()].sort()) if (!order.has(node)) visit(node);
  return components.sort((x, y) => x[0].localeCompare(y[0]));
}

// The whole graph of a source folder: edges and cycles.
export function folderGraph(dir) {
  const edges = folderEdges(fileImports(dir));
  return { edges, cycles: cyclesOf(edges) };
}

// Text report: edges with counts, then each cycle with the file imports inside it.
export function formatGraph({ edges, cycles }) {
  const lines = [...edges].map(([key, files]) => `${key} (${files.length} imports)`);
  lines.push("", cycles.length === 0 ? "cycles: none" : `cycles: ${cycles.length}`);
  for (const component of cycles) {
    lines.push(`  cycle: ${component.join(", ")}`);
    for (const [key, files] of edges) {
      const [a, b] = key.split(" -> ");
      if (!component.includes(a) || !component.includes(b)) continue;
      for (const file of files) lines.push(`    ${file}`);
    }
  }
  return lines.join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", process.argv[2] ?? "src");
  console.log(formatGraph(folderGraph(root)));
}
