// parseEvent checks the fields it reads by hand (a well-formed event loads no zod); the zod
// schema stays the source of truth, and these hold the two equal.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { eventSchema, isValidField, parseEvent } from "../../src/pipeline/parse-event.js";
import { FIXTURE_NAMES, fixtureJson } from "./event-fixtures.js";

type Field = Parameters<typeof isValidField>[0];
const FIELDS = Object.keys(eventSchema().shape) as Field[];
const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const zodSays = (field: Field, value: unknown) =>
  z.safeParse(eventSchema().shape[field], value).success;

// Values a client could send for any field: every JSON type, edge numbers, Infinity (JSON.parse("1e400")).
const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -0, -1, Infinity, -Infinity, "", " ", true, false, [], {}),
);

describe("the hand check of an event's fields", () => {
  it("covers exactly the schema's fields", () => {
    for (const field of FIELDS) expect(typeof isValidField(field, "x")).toBe("boolean");
    expect(FIELDS).toContain("hookEventName");
    expect(FIELDS).toHaveLength(17);
  });

  it.each(FIXTURE_NAMES)("%s: every field, snake_case or camelCase, gets zod's verdict", (name) => {
    const payload = fixtureJson(name);
    for (const field of FIELDS) {
      for (const key of [field, snake(field)]) {
        const value = payload[key];
        if (value === undefined || value === null) continue;
        expect([key, isValidField(field, value)]).toEqual([key, zodSays(field, value)]);
      }
    }
  });

  it("agrees with zod on fuzzed values for every field", () => {
    fc.assert(
      fc.property(fc.constantFrom(...FIELDS), anyValue, (field, value) => {
        expect(isValidField(field, value)).toBe(zodSays(field, value));
      }),
      { numRuns: 20_000 },
    );
  });

  it("names a dropped field in zod's words", () => {
    const event = parseEvent('{"hook_event_name":"Stop","message_count":-3,"title":7}');
    expect(event).toMatchObject({
      dropped: [
        "title: Invalid input: expected string, received number; dropped",
        "message_count: Too small: expected number to be >=0; dropped",
      ],
    });
  });
});
