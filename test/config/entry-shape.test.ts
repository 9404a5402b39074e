// A sink entry is validated with the schemas of the common keys it has, not all of them (a cold
// worker builds less before its first banner); zod reads an entry the same way either way (the
// same data, the same issues in the same order), and finds the same secrets in it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { commonEntry } from "../../src/config/entry-common-schema.js";
import { entrySchemaFor, entryVariantsFor, optionShapesOf } from "../../src/config/schema.js";
import { secretsOfEntry } from "../../src/config/validate-entry.js";
import { CHAT_SERVICES } from "../../src/sinks/chat/index.js";
import { sinks } from "../../src/sinks/index.js";
import type { Sink } from "../../src/sinks/sink.js";
import { secretValuesOf } from "../../src/secret-values.js";

const all = sinks as readonly Sink<unknown>[];

const URL_VALUE = "https://example.com/hook/abcdefgh";

// Values of the right type, of the wrong type, out of range.
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(true, false, 0, 5, 301, 5000, "22:00-07:00", "away", "x", "", [], {}, ["Stop"]),
  fc.constantFrom(URL_VALUE, { afterSeconds: 60, to: ["x"] }),
  fc.constantFrom(...CHAT_SERVICES),
);

// The entries `init` writes for a sink, with a URL for each ${VAR}: valid ones to fuzz from.
function startersOf(sink: Sink<unknown>): Record<string, unknown>[] {
  const smtp = { host: "smtp.example.com", port: 587, user: "me", address: "me@example.com" };
  return sink.starters.map(
    (starter) =>
      JSON.parse(
        JSON.stringify(starter.entry("${SECRET}", smtp)).replace(/\$\{\w+\}/g, URL_VALUE),
      ) as Record<string, unknown>,
  );
}

// An entry of one sink's type (bare or as init writes it): some common keys, some of its option
// keys, some unknown ones.
function entryOf(sink: Sink<unknown>) {
  const optionKeys = [...new Set(optionShapesOf(sink).flatMap((shape) => Object.keys(shape)))];
  const key = fc.oneof(
    fc.constantFrom(...commonEntry.keys),
    fc.constantFrom(...optionKeys),
    fc.string({ maxLength: 6 }),
  );
  const base = fc.constantFrom<Record<string, unknown>>({}, ...startersOf(sink));
  return fc
    .tuple(base, fc.dictionary(key, value, { maxKeys: 4 }))
    .map(([start, rest]) => ({ ...start, ...rest, type: sink.type }));
}

describe("a sink entry's schema with the common keys it has", () => {
  it.each(all.map((sink) => [sink.type, sink] as const))(
    "%s: reads fuzzed entries as the whole entry schema does",
    (_type, sink) => {
      fc.assert(
        fc.property(entryOf(sink), (entry) => {
          const whole = z.safeParse(entrySchemaFor(sink), entry);
          const part = z.safeParse(entrySchemaFor(sink, Object.keys(entry)), entry);
          expect(part.success).toBe(whole.success);
          expect(part.data).toStrictEqual(whole.data);
          expect(part.error?.issues).toStrictEqual(whole.error?.issues);
          expect(secretsOfEntry(entry)).toEqual(secretValuesOf(entrySchemaFor(sink), entry));
        }),
        { numRuns: 300 },
      );
    },
  );

  it("holds only the common keys an entry has, built once", () => {
    const desktop = all.find((sink) => sink.type === "desktop")!;
    const [bare] = entryVariantsFor(desktop, ["type", "appName"]);
    const optionKeys = optionShapesOf(desktop).flatMap((shape) => Object.keys(shape));
    expect(Object.keys(bare!.shape)).toEqual(["type", ...optionKeys]);
    const [timed] = entryVariantsFor(desktop, ["type", "when", "nonsense"]);
    expect(Object.keys(timed!.shape)).toEqual(["type", "when", ...optionKeys]);
    expect(entryVariantsFor(desktop, ["when", "type"])[0]).toBe(timed);
    expect(commonEntry.shapeOf(["when"]).when).toBe(timed!.shape["when"]);
  });
});
