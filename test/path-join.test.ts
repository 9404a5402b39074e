import fc from "fast-check";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { joinPath } from "../src/path-join.js";

// Pieces that make every case normalize() handles: separators doubled and trailing, empty parts,
// `.` and `..` segments at the start, the middle and the end, names that only look like them.
const piece = fc.constantFrom(
  "a",
  "b",
  "/",
  "//",
  ".",
  "..",
  "...",
  ".local",
  "x.y",
  "",
  "a/",
  "/a",
);
const part = fc.array(piece, { maxLength: 4 }).map((pieces) => pieces.join(""));

describe("joinPath", () => {
  it.each([
    [["/home/me", ".local", "state"], "/home/me/.local/state"],
    [["/home/me/", ".config"], "/home/me/.config"],
    [["/state/", "hook-notify"], "/state/hook-notify"],
    [["relative", "..", "x"], "x"],
    [["/a", "./b"], "/a/b"],
    [["", ""], "."],
    [["/"], "/"],
  ])("%j is %j, as join() says", (parts, joined) => {
    expect(joinPath(...parts)).toBe(joined);
    expect(joinPath(...parts)).toBe(join(...parts));
  });

  it("equals join() for any parts", () => {
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 4 }), (parts) => {
        expect(joinPath(...parts)).toBe(join(...parts));
      }),
      { numRuns: 5000 },
    );
  });
});
