import * as z from "zod/mini";
import { DEFAULT_EVENTS, KNOWN_EVENTS } from "../pipeline/hook-event.js";
import { sinks } from "../sinks/index.js";
import type { Sink } from "../sinks/sink.js";

const QUIET_HOURS = /^$|^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/;

/** "22:00-07:00": local time, may cross midnight; "" means none. */
const quietHours = z.optional(
  z.string().check(z.regex(QUIET_HOURS, 'use "HH:MM-HH:MM" in local time, e.g. "22:00-07:00"')),
);
/** Seconds per event kind; "idle_prompt" is a Notification that says the agent waits for input. */
const cooldown = z.optional(
  z.partialRecord(
    z.enum([...KNOWN_EVENTS, "idle_prompt"]),
    z.number().check(z.gte(0), z.lte(86_400)),
  ),
);
const minTurnSeconds = z.optional(z.number().check(z.gte(0), z.lte(86_400)));
const localSinksOverSsh = z.optional(z.boolean());
const coalesceSeconds = z.optional(z.number().check(z.gte(0), z.lte(600)));

/** Keys every sink entry has, whatever its type. */
export const commonEntryShape = {
  /** Events this sink notifies on. Default: Notification, Stop, SubagentStop, SessionEnd. */
  events: z.optional(z.array(z.enum(KNOWN_EVENTS)).check(z.minLength(1))),
  /** "failure": only failures (SessionEnd with reason error/other, StopFailure). */
  when: z.optional(z.enum(["always", "failure"])),
  /** false turns this sink off without deleting it. */
  enabled: z.optional(z.boolean()),
  /** Give up on one delivery after this many seconds. */
  timeoutSeconds: z.optional(z.number().check(z.positive(), z.lte(600))),
  /** Quiet hours for this sink, whatever its kind ("" turns the top-level ones off for it). */
  quietHours,
  /** Cool-down seconds per event kind for this sink, over the top-level ones. */
  cooldown,
  /** A Stop reaches this sink only when the turn took at least this many seconds. */
  minTurnSeconds,
  /** true: this desktop or sound sink still runs over SSH or in a container without a display. */
  localSinksOverSsh,
  /** Subagent coalescing window for this sink; 0 gives it every SubagentStop on its own. */
  coalesceSeconds,
};

const entrySchemas = new Map<string, z.ZodMiniObject>();

// One sink entry's full schema: the common keys plus the sink's own options (built once per type).
export function entrySchemaFor(sink: Sink<unknown>): z.ZodMiniObject {
  const cached = entrySchemas.get(sink.type);
  if (cached) return cached;
  const own = (sink.options as unknown as { shape: z.core.$ZodShape }).shape;
  const schema = z.strictObject({ type: z.literal(sink.type), ...commonEntryShape, ...own });
  entrySchemas.set(sink.type, schema);
  return schema;
}

const template = z.strictObject({
  /** Title template, e.g. "{project} · {agent} finished". */
  title: z.optional(z.string()),
  /** Body template, e.g. "{last_message}". */
  body: z.optional(z.string()),
});

/** The config file minus the sink entries, which are validated one by one. */
export const topLevelShape = {
  /** Path or URL of schema/config.schema.json, for editor completion. */
  $schema: z.optional(z.string()),
  /** false turns hook-notify off (in a project file: for that project). */
  enabled: z.optional(z.boolean()),
  /** Per-event title/body templates; "failure" wins for failures. */
  templates: z.optional(z.partialRecord(z.enum([...KNOWN_EVENTS, "failure"]), template)),
  /** The notification body is cut to this many characters. Default 300. */
  maxBodyLength: z.optional(z.number().check(z.int(), z.gte(40), z.lte(4000))),
  /** User config only: let project files add sinks and targets (off: a cloned repo could exfiltrate). */
  allowProjectSinks: z.optional(z.boolean()),
  /** The same event (session, event, text) within this many seconds notifies once. Default 5; 0: off. */
  dedupeSeconds: z.optional(z.number().check(z.gte(0), z.lte(3600))),
  /** At most one notification per session and event kind per this many seconds. Default: {"idle_prompt": 60}. Failures are never held back. */
  cooldown,
  /** A Stop notifies only when the turn took at least this many seconds (from the transcript). Default 0: off. */
  minTurnSeconds,
  /** Local time, e.g. "22:00-07:00": desktop and sound stay silent; remote sinks deliver as configured. */
  quietHours,
  /** Over SSH (SSH_CONNECTION or SSH_TTY set) or in a container without a display, desktop and sound are skipped unless this is true. */
  localSinksOverSsh,
  /** SubagentStop events of one session less than this many seconds apart become one notification ("3 subagents finished: …"), sent this long after the last one (at most 60 s after the first). Default 3; 0: off. */
  coalesceSeconds,
};

// The whole config file's schema: the source of the generated JSON Schema.
export function buildConfigSchema(): z.ZodMiniObject {
  const entries = sinks.map((sink) => entrySchemaFor(sink as Sink<unknown>));
  const [first, ...rest] = entries;
  const entry = first && rest.length > 0 ? z.union([first, ...rest]) : (first ?? z.never());
  return z.strictObject({ ...topLevelShape, sinks: z.optional(z.record(z.string(), entry)) });
}

export { DEFAULT_EVENTS };
