// Pieces of the config schema used in more than one place (a key both at the top level and on a
// sink entry), and `about`, which describes a key for the JSON Schema.
import * as z from "../zod.js";
import { once } from "../once.js";
import { NOTICE_EVENTS } from "../core/hook-event.js";

const QUIET_HOURS = /^$|^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/;

// The noise rules are keys both at the top level and on a sink entry, with a description for each
// place; `.check(z.meta(…))` makes a described copy of the one schema.
// Every schema here is built on first use (once): a hook run with no config file builds none.
export const quietHours = once(() =>
  z.string().check(z.regex(QUIET_HOURS, 'use "HH:MM-HH:MM" in local time, e.g. "22:00-07:00"')),
);
export const cooldown = once(() =>
  z.partialRecord(
    z.enum([...NOTICE_EVENTS, "idle_prompt"]),
    z.number().check(z.gte(0), z.lte(86_400)),
  ),
);
export const minTurnSeconds = once(() => z.number().check(z.gte(0), z.lte(86_400)));
export const localSinksOverSsh = once(() => z.boolean());
export const coalesceSeconds = once(() => z.number().check(z.gte(0), z.lte(600)));

// A shape built key by key (the top level's, a sink entry's common keys): `shapeOf` gives the
// schemas of the keys asked for that are its keys, each built once on first request, in the
// builders' order; a file is validated with its own keys' (zod reads it the same way: every key
// is optional), the JSON Schema is made from the `whole`.
export function keyByKey<B extends Record<string, () => z.core.$ZodType>>(builders: B) {
  type Shape = { [K in keyof B]: ReturnType<B[K]> };
  const entries = Object.entries(builders) as [keyof Shape & string, () => z.core.$ZodType][];
  const keys = entries.map(([key]) => key);
  const built = new Map<string, z.core.$ZodType>();
  const shapeOf = (wanted: readonly string[]): Partial<Shape> => {
    const shape: Record<string, z.core.$ZodType> = {};
    for (const [key, build] of entries) {
      if (!wanted.includes(key)) continue;
      let schema = built.get(key);
      if (!schema) built.set(key, (schema = build()));
      shape[key] = schema;
    }
    return shape as Partial<Shape>;
  };
  return { keys, shapeOf, whole: () => shapeOf(keys) as Shape };
}

// The JSON Schema description (and default) of one config key; editors show it on hover.
export function about(description: string, defaultValue?: unknown) {
  return z.meta(
    defaultValue === undefined ? { description } : { description, default: defaultValue },
  );
}

// One step of a follow-up to other sinks when nobody answered in time (on a sink or top level).
const escalateStep = once(() =>
  z.strictObject({
    afterSeconds: z
      .number()
      .check(
        z.gte(1),
        z.lte(43_200),
        about(
          "Seconds after the notification, if you have not answered the session (your next prompt there) or opened the notification by then. In a chain each step counts from the notification, not from the step before.",
        ),
      ),
    to: z
      .array(z.string().check(z.minLength(1)))
      .check(z.minLength(1), about('Names of the sinks that get the follow-up, e.g. ["phone"].')),
    events: z.optional(
      z
        .array(z.enum(NOTICE_EVENTS))
        .check(
          about(
            "Events that escalate. Default: permission and idle prompts (Notification) and failures; add Stop to be chased after a finished turn too.",
          ),
        ),
    ),
  }),
);

// One step, or a chain of them whose afterSeconds increase ([5 min → phone, 15 min → mail]).
export const escalateShape = once(() =>
  z.union([
    escalateStep(),
    z.array(escalateStep()).check(
      z.minLength(1),
      z.superRefine((steps, ctx) => {
        steps.forEach((step, index) => {
          const before = steps[index - 1];
          if (before && step.afterSeconds <= before.afterSeconds)
            ctx.addIssue({
              code: "custom",
              message: `each step comes after the one before it: expected more than ${String(before.afterSeconds)} (seconds after the notification)`,
              path: [index, "afterSeconds"],
              input: step.afterSeconds,
            });
        });
      }),
    ),
  ]),
);

// Title and body templates for one event.
export const template = once(() =>
  z.strictObject({
    title: z.optional(
      z.string().check(about('Title template, e.g. "{project} · {agent} finished".')),
    ),
    body: z.optional(z.string().check(about('Body template, e.g. "{last_message}".'))),
  }),
);
