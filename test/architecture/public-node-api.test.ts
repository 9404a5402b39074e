// Public Node APIs only (issue 37): node's internal bindings and private handles change shape
// between releases (process_wrap's spawn() took other arguments on Node 24 and 26, and its native
// assert killed the hook with SIGABRT, where no `try` could catch it). No file of src/ or bin/
// may reach for one; this test fails on the first that does.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOTS = ["src", "bin"].map((dir) => ({
  dir,
  path: fileURLToPath(new URL(`../../${dir}`, import.meta.url)),
}));
const files = ROOTS.flatMap(({ dir, path }) =>
  (readdirSync(path, { recursive: true }) as string[])
    .filter((name) => /\.(?:ts|cts|mts|js|cjs|mjs)$/.test(name))
    .map((name) => ({
      path: `${dir}/${name.replaceAll("\\", "/")}`,
      text: readFileSync(join(path, name), "utf8"),
    })),
);

/** What reaches past node's public API, each with what it is. */
const PRIVATE: readonly (readonly [RegExp, string])[] = [
  [/\.\s*binding\b|\[\s*["'`]binding["'`]\s*\]/, "process.binding"],
  [/\binternalBinding\b|_linkedBinding\b/, "an internal binding"],
  [/["'`]\w+_wrap["'`]/, "a libuv wrap binding by name (process_wrap, pipe_wrap, tcp_wrap…)"],
  [/\._handle\b|\._getActiveHandles\b|\._getActiveRequests\b/, "a private handle"],
  [/["'`](?:node:)?internal\//, "an internal module"],
  [/--expose[-_]internals/, "--expose-internals"],
];

function offences(text: string): string[] {
  return PRIVATE.filter(([pattern]) => pattern.test(text)).map(([, what]) => what);
}

describe("public Node APIs only", () => {
  it("finds the source files of src/ and bin/", () => {
    expect(files.filter((file) => file.path.startsWith("src/")).length).toBeGreaterThan(100);
    expect(files.filter((file) => file.path.startsWith("bin/")).length).toBeGreaterThan(0);
  });

  it("no file of src/ or bin/ uses process.binding, internalBinding or a private handle", () => {
    const found = files.flatMap((file) =>
      offences(file.text).map((what) => `${file.path}: ${what}`),
    );
    expect(found).toEqual([]);
  });

  it.each([
    ['(process as { binding?: (n: string) => unknown }).binding?.("process_wrap")', 2],
    ['process["binding"]("pipe_wrap")', 2],
    ["const { internalBinding } = require('internal/test/binding')", 2],
    ["socket._handle.fd", 1],
    ["spawn(process.execPath, [file], { detached: true, stdio: 'ignore' })", 0],
  ] as const)("would catch %s", (text, count) => {
    expect(offences(text)).toHaveLength(count);
  });
});
