import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fnv1a64 } from "../src/fnv1a.js";

// The textbook FNV-1a 64 with BigInt: what the limb version must equal, byte for byte.
function reference(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, "utf8")) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}

describe("fnv1a64", () => {
  it.each([
    ["", "cbf29ce484222325"],
    ["a", "af63dc4c8601ec8c"],
    ["foobar", "85944171f73967e8"],
  ])("the published test vector for %j", (text, hash) => {
    expect(fnv1a64(text)).toBe(hash);
  });

  it("equals the BigInt reference for any text (outbox keys on disk stay the same)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (text) => {
        expect(fnv1a64(text)).toBe(reference(text));
      }),
      { numRuns: 2000 },
    );
  });
});
