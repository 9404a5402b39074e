// Nothing at module load that a process may not need (issue #41): V8 makes a regular expression
// literal when its line runs, and one with a Unicode property escape (\p{L}, \p{Cc}) costs it
// 1-2 M instructions then (the first one more: its Unicode tables are set up), in every process
// that loads the module: a cold worker paid ~3.7 M (about 1.2 ms on Node 20) before its first
// banner for five of them that only chat text, kitty and typed replies use. Such a pattern is
// built on first use (src/once.ts).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));
const files = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((name) => name.endsWith(".ts"))
  .map((name) => ({
    path: `src/${name.replaceAll("\\", "/")}`,
    text: readFileSync(join(SRC, name), "utf8"),
  }));

// A declaration at the module's top level (no indentation) whose value is a regular expression
// literal with a property escape, on its line or the next (prettier moves a long one there).
const AT_LOAD =
  /^(?:export )?(?:const|let|var) [\w$]+(?::[^=\n]+)? =\s*\/(?:[^/\n\\]|\\.)*\\[pP]\{/m;

describe("what a module builds at load", () => {
  it("reads the source files of src/", () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it("the rule finds such a literal, on its line or the next, and leaves a built-on-use one", () => {
    expect(AT_LOAD.test("const WORD = /\\p{L}+/u;")).toBe(true);
    expect(AT_LOAD.test("export const WORD =\n  /[\\p{L}\\p{N}]+/giu;")).toBe(true);
    expect(AT_LOAD.test("const word = once(() => /\\p{L}+/u);")).toBe(false);
    expect(AT_LOAD.test("function f() {\n  const word = /\\p{L}+/u;\n}")).toBe(false);
  });

  it("no module makes a regular expression with a Unicode property escape as it loads", () => {
    expect(files.filter((file) => AT_LOAD.test(file.text)).map((file) => file.path)).toEqual([]);
  });
});
