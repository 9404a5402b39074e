// The layers of src/ hold: no folder-level import cycle, core/ imports nothing of the project, and
// every import (import type and import() included) goes where scripts/layers.mjs allows.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  cyclesOf,
  fileImports,
  folderEdges,
  folderGraph,
  importsOf,
} from "../../scripts/folder-graph.mjs";
import { LAYERS, mayImport } from "../../scripts/layers.mjs";

const src = fileURLToPath(new URL("../../src", import.meta.url));
const graph = folderGraph(src);

describe("folder graph of src/", () => {
  it("has no cycle between folders (or root files)", () => {
    expect(graph.cycles).toEqual([]);
  });

  it("core/ imports nothing else of the project", () => {
    const outOfCore = fileImports(src).filter(
      ({ from, to }) => from.startsWith("core/") && !to.startsWith("core/"),
    );
    expect(outOfCore).toEqual([]);
  });

  it("every folder import is one scripts/layers.mjs allows", () => {
    const forbidden = [...graph.edges]
      .filter(([key]) => {
        const [from = "", to = ""] = key.split(" -> ");
        return !mayImport(from, to);
      })
      .map(([key, files]) => `${key}: ${files.join(", ")}`);
    expect(forbidden).toEqual([]);
  });

  it("names every node of the graph in scripts/layers.mjs", () => {
    const nodes = new Set([...graph.edges.keys()].flatMap((key) => key.split(" -> ")));
    expect([...nodes].filter((node) => !(node in LAYERS))).toEqual([]);
  });
});

describe("the graph code", () => {
  it("finds import type, export from and import() specifiers, and skips comments", () => {
    const source = [
      'import type { A } from "../core/a.js";',
      'export { b } from "./b.js";',
      'const c = await import("../c/c.js");',
      'import "./side.js";',
      '// import { d } from "../d/d.js";',
      '/* import { e } from "../e/e.js"; */',
      'import { z } from "zod";',
    ].join("\n");
    expect(importsOf(source).sort()).toEqual(["../c/c.js", "../core/a.js", "./b.js", "./side.js"]);
  });

  it("reports a cycle through three folders and leaves acyclic folders out", () => {
    const edges = folderEdges([
      { from: "config/a.ts", to: "pipeline/b.ts" },
      { from: "pipeline/b.ts", to: "outbox/c.ts" },
      { from: "outbox/c.ts", to: "config/d.ts" },
      { from: "outbox/c.ts", to: "core/e.ts" },
      { from: "cli.ts", to: "config/a.ts" },
    ]);
    expect(cyclesOf(edges)).toEqual([["config", "outbox", "pipeline"]]);
  });

  it("reports a two-node cycle through a root file", () => {
    const edges = folderEdges([
      { from: "deps.ts", to: "pipeline/input-source.ts" },
      { from: "pipeline/read-input.ts", to: "deps.ts" },
    ]);
    expect(cyclesOf(edges)).toEqual([["deps.ts", "pipeline"]]);
  });
});
