// Delivery has one home (ARCHITECTURE.md): the pipeline ends at a plan and reaches neither the
// link nor the outbox; one call of a sink's send; the presence probes asked in one place; one
// fallback module; no circle of value imports between files.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fileImports, listSources, valueCycles } from "../../scripts/folder-graph.mjs";

const src = fileURLToPath(new URL("../../src", import.meta.url));
const files = listSources(src);
const code = (file: string) =>
  readFileSync(join(src, file), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
const filesMatching = (pattern: RegExp) => files.filter((file) => pattern.test(code(file)));

describe("delivery's one home", () => {
  it("pipeline/ imports no link/ or outbox/ module (import type and import() included)", () => {
    const reached = fileImports(src, files)
      .filter(({ from, to }) => from.startsWith("pipeline/") && /^(link|outbox)\//.test(to))
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(reached).toEqual([]);
  });

  it("calls a sink's send in one place, delivery/send.ts", () => {
    expect(filesMatching(/\bsink\.send\(/)).toEqual(["delivery/send.ts"]);
  });

  it("asks the presence probes in one place, delivery/presence-gate.ts", () => {
    const asking = filesMatching(/\bprobePresence\(/).filter(
      (file) => !file.startsWith("presence/"),
    );
    expect(asking).toEqual(["delivery/presence-gate.ts"]);
  });

  it("queues fallbacks in one module, delivery/fallback.ts", () => {
    // An entry that stands in for a given-up sink is written by whoever enqueues with fallbackOf
    // (outbox/store.ts only defines the entry).
    const queueing = filesMatching(/\benqueue\(/).filter(
      (file) => file !== "outbox/store.ts" && /\bfallbackOf\b/.test(code(file)),
    );
    expect(queueing).toEqual(["delivery/fallback.ts"]);
  });

  // Every file can be read after the files it imports: no module sees another half-run.
  it("has no circle of value imports between files", () => {
    expect(valueCycles(src, files)).toEqual([]);
  });
});
