// In-process fuzzing of the pure parser, far more cases than the binary fuzz can afford: any text
// gives a HookEvent, an IgnoredEvent or a HookNotifyError with an input code; nothing else escapes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HookNotifyError } from "../../src/errors.js";
import { formatNotification } from "../../src/message/format.js";
import { KNOWN_EVENTS } from "../../src/core/hook-event.js";
import { parseEvent } from "../../src/pipeline/parse-event.js";

const RUNS = Number(process.env.FUZZ_PARSER_RUNS ?? 30_000);

const field = fc.constantFrom(
  "hook_event_name",
  "hookEventName",
  "session_id",
  "sessionId",
  "cwd",
  "message",
  "title",
  "reason",
  "notification_type",
  "last_assistant_message",
  "lastAssistantMessage",
  "agent_type",
  "error",
  "tool_name",
  "session_duration_ms",
  "message_count",
  "stop_hook_active",
);

// Objects that look like hook events, with every field's type up for grabs.
const eventLike = fc
  .record({
    name: fc.oneof(fc.constantFrom(...KNOWN_EVENTS), fc.string({ maxLength: 30 })),
    fields: fc.dictionary(field, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 }),
    // Any key, the names every object has among them ("__proto__" a key of the JSON text).
    extra: fc.dictionary(
      fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.constantFrom("__proto__", "constructor", "toString", "valueOf", "hasOwnProperty"),
      ),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 4 },
    ),
  })
  .map(({ name, fields, extra }) => JSON.stringify({ ...extra, hook_event_name: name, ...fields }));

const text = fc.oneof(
  { arbitrary: eventLike, weight: 6 },
  { arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)), weight: 2 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 300 }), weight: 2 },
);

const INPUT_CODES = ["INPUT_EMPTY", "INPUT_INVALID"];

describe("parseEvent under fuzzing", () => {
  it(`returns an event or throws an input error, for ${RUNS} inputs`, () => {
    fc.assert(
      fc.property(text, (input) => {
        let parsed: ReturnType<typeof parseEvent>;
        try {
          parsed = parseEvent(input);
        } catch (error) {
          expect(error).toBeInstanceOf(HookNotifyError);
          expect(INPUT_CODES).toContain((error as HookNotifyError).code);
          return;
        }
        if ("ignored" in parsed) return;
        expect(KNOWN_EVENTS).toContain(parsed.name);
        // Read from the event's own keys: the raw event has the prototype every object has.
        expect(Object.getPrototypeOf(parsed.raw)).toBe(Object.prototype);
        // Whatever got through renders to a one-line title and a bounded body.
        const n = formatNotification(
          parsed,
          { project: "p", projectDir: "/p" },
          { maxBodyLength: 300, id: "id", now: 0 },
        );
        expect(n.title).not.toContain("\n");
        // No terminal escapes or other control characters reach a banner, a chat or a mail.
        // eslint-disable-next-line no-control-regex
        expect(`${n.title}${n.body}`).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
        expect(n.title.length).toBeLessThanOrEqual(200);
        expect(n.body.length).toBeLessThanOrEqual(300);
      }),
      { numRuns: RUNS },
    );
  }, 300_000); // ~8 s alone; a busy CI machine runs it beside other test files
});
