import * as z from "../zod.js";

// The handler shape both clients accept for a command hook; timeout is in seconds.
export const commandHandlerSchema = z.looseObject({
  type: z.literal("command"),
  command: z.string().check(z.minLength(1)),
  /** Claude Code's exec form: `command` is the program, run with these arguments and no shell. */
  args: z.optional(z.array(z.string())),
  timeout: z.optional(z.number().check(z.positive())),
});

// A matcher group; Notification, Stop, SubagentStop and SessionEnd need no matcher.
export const matcherGroupSchema = z.looseObject({
  matcher: z.optional(z.string()),
  hooks: z.array(commandHandlerSchema),
});

// Event name → matcher groups: Droid's bare hooks.json, and the "hooks" value of settings.json.
export const eventMapSchema = z.record(z.string(), z.array(matcherGroupSchema));

// Claude Code settings.json: the event map sits under "hooks".
export const claudeSettingsSchema = z.looseObject({ hooks: eventMapSchema });

export type CommandHandler = z.infer<typeof commandHandlerSchema>;
export type EventMap = z.infer<typeof eventMapSchema>;

// True for a plain JSON object (not an array, not null).
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
