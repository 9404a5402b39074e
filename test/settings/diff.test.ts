import { describe, expect, it } from "vitest";
import { diffLines } from "../../src/settings/diff.js";

describe("diffLines", () => {
  it("is empty when nothing changed", () => {
    expect(diffLines("a\nb\n", "a\nb\n", "f")).toBe("");
  });

  it("shows changed lines with two lines of context and hunk breaks", () => {
    const before = ["{", "  a", "  b", "  c", "  d", "  e", "  f", "  g", "}"].join("\n");
    const after = ["{", "  A", "  b", "  c", "  d", "  e", "  f", "  g", "  h", "}"].join("\n");
    expect(diffLines(before, after, "x.json")).toMatchInlineSnapshot(`
      "--- x.json
      +++ x.json
        {
      -   a
      +   A
          b
          c
      @@
          f
          g
      +   h
        }"
    `);
  });

  it("shows a new file as all additions", () => {
    expect(diffLines("", "{\n}\n", "n")).toBe("--- n\n+++ n\n+ {\n+ }");
  });
});
