// validateConfig builds the schemas of the top-level keys a file has, not all of them; zod reads
// a file the same way either way (the same data, the same issues in the same order).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import {
  TOP_LEVEL_KEYS,
  topLevelShape,
  topLevelShapeOf,
} from "../../src/config/top-level-schema.js";

const loose = (shape: object) => z.looseObject(shape);

// Values of the right type, of the wrong type, out of range, and unknown keys.
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(true, false, 0, 5, 301, 5000, "22:00-07:00", "x", "", [], {}, ["Stop"]),
);
const file = fc.dictionary(
  fc.oneof(fc.constantFrom(...TOP_LEVEL_KEYS), fc.string({ maxLength: 6 })),
  value,
  { maxKeys: 6 },
);

describe("the top-level schema of the keys a file has", () => {
  it("reads fuzzed files as the whole top-level schema does", () => {
    fc.assert(
      fc.property(file, (json) => {
        const whole = z.safeParse(loose(topLevelShape()), json);
        const part = z.safeParse(loose(topLevelShapeOf(Object.keys(json))), json);
        expect(part.success).toBe(whole.success);
        expect(part.data).toEqual(whole.data);
        expect(part.error?.issues).toEqual(whole.error?.issues);
      }),
      { numRuns: 3_000 },
    );
  });

  it("builds each key's schema once and only on request", () => {
    const first = topLevelShapeOf(["maxBodyLength", "nonsense"]);
    expect(Object.keys(first)).toEqual(["maxBodyLength"]);
    expect(topLevelShapeOf(["maxBodyLength"]).maxBodyLength).toBe(first.maxBodyLength);
  });
});
