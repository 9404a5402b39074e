import * as z from "../zod.js";
import { once } from "../once.js";
import { NOTICE_EVENTS, SINK_DEFAULT_EVENTS } from "../core/hook-event.js";
import { sinks } from "../sinks/index.js";
import type { Sink } from "../sinks/sink.js";
import { DEFAULT_IDLE_SECONDS } from "../core/defaults.js";
import {
  about,
  coalesceSeconds,
  cooldown,
  escalateShape,
  localSinksOverSsh,
  minTurnSeconds,
  quietHours,
} from "./schema-parts.js";
import { topLevelShape } from "./top-level-schema.js";

/** Keys every sink entry has, whatever its type. */
export const commonEntryShape = once(() => ({
  events: z.optional(
    z
      .array(z.enum(NOTICE_EVENTS))
      .check(
        about(
          "Events this sink notifies on: hook events, and those `hook-notify watch` announces (SessionIdle, ComputerError, ComputerRecovered, ControlsChanged, DailyDigest, UsageAlert). A sink without `events` gets Notification, Stop, SubagentStop, SessionEnd, StopFailure and PermissionDenied, AgentNotify (the agent's own notify tool, `hook-notify mcp`), and every watch event.",
          [...SINK_DEFAULT_EVENTS],
        ),
      ),
  ),
  when: z.optional(
    z
      .enum(["always", "failure", "away"])
      .check(
        about(
          '"failure": only failures, i.e. SessionEnd with reason error or other, and StopFailure; "away": only when the session\'s terminal (or tmux pane) does not have the focus or you have been idle `idleSeconds` (checked in the background worker; when no probe can tell, it notifies); "always": every event in `events`.',
          "always",
        ),
      ),
  ),
  idleSeconds: z.optional(
    z
      .number()
      .check(
        z.gte(1),
        z.lte(86_400),
        about(
          'With "when": "away": idle this long counts as away even while the terminal has the focus.',
          DEFAULT_IDLE_SECONDS,
        ),
      ),
  ),
  digest: z.optional(
    z
      .string()
      .check(
        z.regex(/^(return|([01]\d|2[0-3]):[0-5]\d)$/, 'expected "return" or a time "HH:MM"'),
        about(
          'Hold this sink\'s notifications while the presence probes say you are away, and send them as one digest: "return" when the probes say you are back (or can no longer tell), "HH:MM" at that local time. Checked in the background worker. While you are there (or no probe can tell) each notification goes as usual, unless "when": "away" skips it.',
        ),
      ),
  ),
  escalate: z.optional(
    escalateShape().check(
      about(
        "When this sink delivered an event that needs you (a permission or idle prompt, a failure) and you have not answered the session within afterSeconds, the sinks in `to` get a follow-up. One step, or an array of steps with increasing afterSeconds (a chain: each step is cancelled too once you answer).",
      ),
    ),
  ),
  fallback: z.optional(
    z
      .array(z.string().check(z.minLength(1)))
      .check(
        z.minLength(1),
        about(
          'Sinks that get a notification this sink gave up on (a permanent error, or its retries ran out), once each, marked as a fallback, e.g. ["mail"]. A sink with "events": [] serves only as a fallback. A cycle is refused.',
        ),
      ),
  ),
  enabled: z.optional(
    z.boolean().check(about("false turns this sink off without deleting it.", true)),
  ),
  timeoutSeconds: z.optional(
    z
      .number()
      .check(
        z.positive(),
        z.lte(600),
        about(
          "Give up on one delivery after this many seconds. Default 5 for desktop and sound (in the hook), 15 per attempt for chat, email and webhook (in the background worker).",
        ),
      ),
  ),
  quietHours: z.optional(
    quietHours().check(
      about(
        'Quiet hours for this sink, whatever its kind (a remote sink too), e.g. "22:00-07:00" in local time; "" lifts the top-level ones for it. Default: the top-level quietHours for desktop and sound, none for remote sinks.',
      ),
    ),
  ),
  cooldown: z.optional(
    cooldown().check(
      about(
        "Cool-down seconds per event kind for this sink, merged over the top-level ones and the default.",
      ),
    ),
  ),
  minTurnSeconds: z.optional(
    minTurnSeconds().check(
      about(
        "A Stop reaches this sink only when the turn took at least this many seconds. Default: the top-level minTurnSeconds.",
      ),
    ),
  ),
  localSinksOverSsh: z.optional(
    localSinksOverSsh().check(
      about(
        "true: this desktop or sound sink still runs over SSH or in a container without a display. Default: the top-level localSinksOverSsh.",
      ),
    ),
  ),
  coalesceSeconds: z.optional(
    coalesceSeconds().check(
      about(
        "Subagent coalescing window for this sink; 0 gives it every SubagentStop on its own. Default: the top-level coalesceSeconds.",
      ),
    ),
  ),
}));

const entrySchemas = new Map<string, z.ZodMiniType>();
const variantSchemas = new Map<string, z.ZodMiniObject[]>();

// A sink's option shapes: its one object, or one object per variant when its options are a union
// told apart by a key (chat: one per `service`), each with the rules across its options.
function optionVariants(sink: Sink<unknown>): z.ZodMiniObject[] {
  const { options } = sink;
  if (options instanceof z.ZodMiniObject) return [options];
  if (options instanceof z.ZodMiniDiscriminatedUnion) {
    const variants = options.def.options.filter((one) => one instanceof z.ZodMiniObject);
    if (variants.length === options.def.options.length) return variants;
  }
  throw new TypeError(`sink ${sink.type}: its options are not an object or a union of objects`);
}

// The option keys of every shape a sink's entry may take (for finding secret keys).
export function optionShapesOf(sink: Sink<unknown>): z.core.$ZodShape[] {
  return optionVariants(sink).map((variant) => variant.shape);
}

// One sink's entry schemas: the common keys plus each of its option shapes (built once per type).
export function entryVariantsFor(sink: Sink<unknown>): z.ZodMiniObject[] {
  const cached = variantSchemas.get(sink.type);
  if (cached) return cached;
  const type = z.literal(sink.type).check(about("The kind of sink; its options follow."));
  const variants = optionVariants(sink).map((variant) => {
    const entry = z.strictObject({ type, ...commonEntryShape(), ...variant.shape });
    // The rules across the options read only the options' keys, which the entry holds too.
    const checks = (variant.def.checks ?? []) as never[];
    return checks.length > 0 ? entry.check(...checks) : entry;
  });
  variantSchemas.set(sink.type, variants);
  return variants;
}

// One sink entry's full schema; a sink with option variants gets their union, chosen by the key
// that tells them apart (so an issue names the variant's own option, not "Invalid input").
export function entrySchemaFor(sink: Sink<unknown>): z.ZodMiniType {
  const cached = entrySchemas.get(sink.type);
  if (cached) return cached;
  const [first, ...rest] = entryVariantsFor(sink);
  const key = discriminatorOf(sink.options);
  const schema =
    first === undefined || rest.length === 0 || key === undefined
      ? (first ?? z.never())
      : z.discriminatedUnion(key, [first, ...rest], { error: unmatchedMessage(sink.options) });
  entrySchemas.set(sink.type, schema);
  return schema;
}

// The key that tells a sink's option variants apart (chat: "service").
function discriminatorOf(options: z.ZodMiniType): string | undefined {
  if (!(options instanceof z.ZodMiniDiscriminatedUnion)) return undefined;
  const { def } = options;
  return "discriminator" in def && typeof def.discriminator === "string"
    ? def.discriminator
    : undefined;
}

// The message the sink's own union gives for a variant key that matches none (it lists the
// values), or zod's when the sink set none.
function unmatchedMessage(options: z.ZodMiniType): string | undefined {
  if (options.def.error === undefined) return undefined;
  return z.safeParse(options, {}).error?.issues[0]?.message;
}

// The whole config file's schema: the source of the generated JSON Schema.
export function buildConfigSchema(): z.ZodMiniObject {
  const entries = sinks.flatMap((sink) => entryVariantsFor(sink as Sink<unknown>));
  const [first, ...rest] = entries;
  const entry = first && rest.length > 0 ? z.union([first, ...rest]) : (first ?? z.never());
  const sinksRecord = z
    .record(z.string(), entry)
    .check(
      about(
        "Where notifications go: one entry per sink, under a name of your choice (it shows in logs and errors); `type` picks the kind. With no config file at all: one desktop and one sound sink.",
      ),
    );
  return z.strictObject({ ...topLevelShape(), sinks: z.optional(sinksRecord) });
}
