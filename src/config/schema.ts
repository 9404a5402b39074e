import * as z from "../zod.js";
import { once } from "../once.js";
import { NOTICE_EVENTS, SINK_DEFAULT_EVENTS } from "../core/hook-event.js";
import { sinks } from "../sinks/index.js";
import type { Sink } from "../sinks/sink.js";
import {
  DEFAULT_APPROVE_SECONDS,
  DEFAULT_REPLY_SECONDS,
  DEFAULT_COALESCE_SECONDS,
  DEFAULT_COOLDOWNS,
  DEFAULT_DEDUPE_SECONDS,
  DEFAULT_ENRICH_TIMEOUT_SECONDS,
  DEFAULT_IDLE_SECONDS,
  DEFAULT_INTERVAL_SECONDS,
  DEFAULT_MAX_BODY_LENGTH,
  DEFAULT_MIN_TURN_SECONDS,
} from "../core/defaults.js";

const QUIET_HOURS = /^$|^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/;

// The noise rules are keys both at the top level and on a sink entry, with a description for each
// place; `.check(z.meta(…))` makes a described copy of the one schema.
// Every schema here is built on first use (once): a hook run with no config file builds none.
const quietHours = once(() =>
  z.string().check(z.regex(QUIET_HOURS, 'use "HH:MM-HH:MM" in local time, e.g. "22:00-07:00"')),
);
const cooldown = once(() =>
  z.partialRecord(
    z.enum([...NOTICE_EVENTS, "idle_prompt"]),
    z.number().check(z.gte(0), z.lte(86_400)),
  ),
);
const minTurnSeconds = once(() => z.number().check(z.gte(0), z.lte(86_400)));
const localSinksOverSsh = once(() => z.boolean());
const coalesceSeconds = once(() => z.number().check(z.gte(0), z.lte(600)));

// The JSON Schema description (and default) of one config key; editors show it on hover.
function about(description: string, defaultValue?: unknown) {
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
const escalateShape = once(() =>
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

type Checks = z.core.$ZodCheck[];
type Variant = z.ZodMiniObject & { _zod: { def: { checks?: Checks } } };

// A sink's option shapes: one, or one per variant when its options are a union told apart by a
// key (chat: one per `service`), each with the rules across its options.
function optionVariants(sink: Sink<unknown>): Variant[] {
  const def = (sink.options as unknown as { _zod: { def: { type: string; options?: Variant[] } } })
    ._zod.def;
  return def.type === "union" && def.options ? def.options : [sink.options as unknown as Variant];
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
    const checks = variant._zod.def.checks ?? [];
    return checks.length > 0 ? entry.check(...(checks as never[])) : entry;
  });
  variantSchemas.set(sink.type, variants);
  return variants;
}

// One sink entry's full schema; a sink with option variants gets their union, chosen by the key
// that tells them apart (so an issue names the variant's own option, not "Invalid input").
export function entrySchemaFor(sink: Sink<unknown>): z.ZodMiniType {
  const cached = entrySchemas.get(sink.type);
  if (cached) return cached;
  const variants = entryVariantsFor(sink);
  const def = (sink.options as unknown as { _zod: { def: { discriminator?: string } } })._zod.def;
  const [first, ...rest] = variants;
  const schema =
    first && rest.length === 0
      ? first
      : z.discriminatedUnion(
          def.discriminator ?? "type",
          variants as unknown as [z.core.$ZodTypeDiscriminable, ...z.core.$ZodTypeDiscriminable[]],
          { error: unionError(sink) },
        );
  entrySchemas.set(sink.type, schema);
  return schema;
}

// The message for a variant key that matches none: the sink's own (it lists the values).
function unionError(sink: Sink<unknown>): string | undefined {
  const error = (
    sink.options as unknown as { _zod: { def: { error?: (issue: never) => unknown } } }
  )._zod.def.error;
  const said = error?.(undefined as never);
  return typeof said === "string" ? said : undefined;
}

const template = once(() =>
  z.strictObject({
    title: z.optional(
      z.string().check(about('Title template, e.g. "{project} · {agent} finished".')),
    ),
    body: z.optional(z.string().check(about('Body template, e.g. "{last_message}".'))),
  }),
);

const service = once(() =>
  z.strictObject({
    baseUrl: z
      .url({ protocol: /^https?$/ })
      .check(about("Where the service's API lives (the part before /api/v0 and /api/v1).")),
    apiKey: z
      .string()
      .check(
        z.minLength(1),
        z.meta({ secret: true }),
        about(
          'The API key (sent as "Authorization: Bearer …"). Write "${FACTORY_API_KEY}" so it stays in the environment. Secret: masked in every log line and message.',
        ),
      ),
    enrich: z.optional(
      z
        .boolean()
        .check(
          about(
            "Droid notifications sent by the background worker carry the session's title and token usage from the service.",
            true,
          ),
        ),
    ),
    enrichTimeoutSeconds: z.optional(
      z
        .number()
        .check(
          z.gt(0),
          z.lte(30),
          about(
            "The worker waits at most this long for the session; then the notification goes out without it.",
            DEFAULT_ENRICH_TIMEOUT_SECONDS,
          ),
        ),
    ),
    intervalSeconds: z.optional(
      z
        .number()
        .check(
          z.gte(10),
          z.lte(86_400),
          about(
            "hook-notify watch polls this often (plus up to 10 % jitter).",
            DEFAULT_INTERVAL_SECONDS,
          ),
        ),
    ),
    computers: z.optional(
      z
        .array(z.string().check(z.minLength(1)))
        .check(
          about(
            "hook-notify watch announces only sessions on these computers (ids, as `hook-notify computers list` shows them) instead of the whole organisation's. --computer overrides it.",
          ),
        ),
    ),
    hostId: z.optional(
      z
        .string()
        .check(
          z.regex(
            /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
            "a host id (UUID)",
          ),
          about(
            "hook-notify watch announces only sessions on the computers of this host. --host overrides it.",
          ),
        ),
    ),
    alerts: z.optional(
      z
        .strictObject({
          creditsPerDay: z.optional(
            z
              .number()
              .check(
                z.gt(0),
                about(
                  "Announce (UsageAlert) when the organisation used more credits than this in a UTC day.",
                ),
              ),
          ),
          creditsPerUserPerDay: z.optional(
            z
              .number()
              .check(
                z.gt(0),
                about(
                  "Announce (UsageAlert) when any one user used more credits than this in a UTC day.",
                ),
              ),
          ),
        })
        .check(
          about(
            "hook-notify watch checks yesterday's credits (analytics lags a day) once a day and announces each crossed threshold once. Needs a Manager or Owner key.",
          ),
        ),
    ),
  }),
);

// The config file minus the sink entries (validated one by one): one builder per key, so that
// validating a file builds the schemas of the keys it has (all of them for the JSON Schema).
const topLevelBuilders = {
  $schema: () =>
    z.optional(
      z.string().check(about("Path or URL of schema/config.schema.json, for editor completion.")),
    ),
  enabled: () =>
    z.optional(
      z
        .boolean()
        .check(about("false turns hook-notify off (in a project file: for that project).", true)),
    ),
  templates: () =>
    z.optional(
      z
        .partialRecord(z.enum([...NOTICE_EVENTS, "failure", "limit", "info"]), template())
        .check(
          about(
            'Per-event title and body templates; the "failure", "limit" (a usage limit) and "info" (a notice) ones win for their level (docs/levels.md). Placeholders: {project}, {agent}, {event}, {message}, {last_message}, {resets} and more (docs/configuration.md).',
          ),
        ),
    ),
  maxBodyLength: () =>
    z.optional(
      z
        .number()
        .check(
          z.int(),
          z.gte(40),
          z.lte(4000),
          about("The notification body is cut to this many characters.", DEFAULT_MAX_BODY_LENGTH),
        ),
    ),
  /** Read from the user's file only: a project file cannot grant itself this trust. */
  allowProjectSinks: () =>
    z.optional(
      z
        .boolean()
        .check(
          about(
            "User config only: let project files add sinks and targets (off by default: a cloned repository could send your notifications elsewhere).",
            false,
          ),
        ),
    ),
  dedupeSeconds: () =>
    z.optional(
      z
        .number()
        .check(
          z.gte(0),
          z.lte(3600),
          about(
            "The same event (client, session, event, text) within this many seconds notifies once, even from several hook processes at once; 0: off.",
            DEFAULT_DEDUPE_SECONDS,
          ),
        ),
    ),
  cooldown: () =>
    z.optional(
      cooldown().check(
        about(
          'At most one notification per session and event kind per this many seconds, e.g. {"Notification": 120}; "idle_prompt" is a Notification saying the agent waits for input. Merged over the default, so {"idle_prompt": 0} lifts it. Failures are never held back.',
          DEFAULT_COOLDOWNS,
        ),
      ),
    ),
  minTurnSeconds: () =>
    z.optional(
      minTurnSeconds().check(
        about(
          "A Stop notifies only when the turn (from your last prompt in the transcript) took at least this many seconds; 0: off. Failures always notify.",
          DEFAULT_MIN_TURN_SECONDS,
        ),
      ),
    ),
  quietHours: () =>
    z.optional(
      quietHours().check(
        about(
          'Local time, e.g. "22:00-07:00" (may cross midnight): desktop and sound stay silent; remote sinks deliver as configured. "": none.',
        ),
      ),
    ),
  localSinksOverSsh: () =>
    z.optional(
      localSinksOverSsh().check(
        about(
          "Over SSH (SSH_CONNECTION or SSH_TTY set) or in a container without a display, desktop and sound are skipped unless this is true (or HOOK_NOTIFY_LOCAL_SINKS=1 is set).",
          false,
        ),
      ),
    ),
  dnd: () =>
    z.optional(
      z
        .enum(["respect", "ignore", "remote"])
        .check(
          about(
            'The system\'s Do Not Disturb (GNOME show-banners, the notification daemon\'s Inhibited as KDE has it, macOS Focus, Windows 11 Do not disturb). "respect": banners still go (the system holds them) and sound sinks are not played; "remote": desktop and sound are skipped and "when": "away" sinks go as if you were away; "ignore": it is not read.',
            "respect",
          ),
        ),
    ),
  escalate: () =>
    z.optional(
      escalateShape().check(
        about(
          "For every event that needs you (permission and idle prompts, failures; Stop only when `events` lists it): if you have not answered the session within afterSeconds, the sinks in `to` get a follow-up. One step, or an array of steps with increasing afterSeconds (a chain: each step is cancelled too once you answer).",
        ),
      ),
    ),
  approveWhen: () =>
    z.optional(
      z
        .enum(["away", "always"])
        .check(
          about(
            '`hook-notify approve` (Claude Code and Codex permission requests answered from the phone): "away" asks the phone only when the presence probe says you are away, and otherwise (present, or unknown) lets the terminal dialog appear at once; "always" asks the phone every time.',
            "away",
          ),
        ),
    ),
  approveSeconds: () =>
    z.optional(
      z
        .int()
        .check(
          z.gte(8),
          z.lte(570),
          about(
            "How long `hook-notify approve` waits for Allow or Deny from the phone before the terminal dialog appears. install --approve gives the hook entry 30 s more than this.",
            DEFAULT_APPROVE_SECONDS,
          ),
        ),
    ),
  approveReplyTopic: () =>
    z.optional(
      z.string().check(
        z.regex(
          /^[-_A-Za-z0-9]{24,64}$/,
          "24-64 letters, digits, - and _ (install --approve writes one)",
        ),
        z.meta({
          secret: true,
          description:
            "Written by install --approve for an ntfy sink: the random topic the phone's Allow and Deny buttons post to (Telegram needs none). Secret: never printed or logged.",
        }),
      ),
    ),
  approveSink: () =>
    z.optional(
      z
        .string()
        .check(
          z.minLength(1),
          about(
            "The chat sink (service ntfy or telegram) that carries permission requests to the phone. Default: the only enabled ntfy sink, else the only enabled telegram sink.",
          ),
        ),
    ),
  replySink: () =>
    z.optional(
      z
        .string()
        .check(
          z.minLength(1),
          about(
            "Opt-in typed replies: the chat sink (service telegram) whose \"waiting for you\" messages (Stop, idle) you may answer with Telegram's Reply; the text, once you confirm it, is typed into the agent's tmux pane. Unset: replies are ignored. See docs/reply.md.",
          ),
        ),
    ),
  replySeconds: () =>
    z.optional(
      z
        .int()
        .check(
          z.gte(60),
          z.lte(3600),
          about(
            'How long after a "waiting for you" message a typed reply to it is still accepted (replySink).',
            DEFAULT_REPLY_SECONDS,
          ),
        ),
    ),
  service: () =>
    z.optional(
      service().check(
        about(
          "The service's HTTP API: session titles for Droid notifications (enrichment) and `hook-notify watch`. Nothing calls the service without it.",
        ),
      ),
    ),
  coalesceSeconds: () =>
    z.optional(
      coalesceSeconds().check(
        about(
          'SubagentStop events of one session less than this many seconds apart become one notification ("3 subagents finished: …"), sent this long after the last one (at most 60 s after the first); 0: off.',
          DEFAULT_COALESCE_SECONDS,
        ),
      ),
    ),
};

type TopLevelShape = {
  [K in keyof typeof topLevelBuilders]: ReturnType<(typeof topLevelBuilders)[K]>;
};

/** The top-level keys of the config file besides `sinks`. */
export const TOP_LEVEL_KEYS = Object.keys(topLevelBuilders) as (keyof TopLevelShape)[];
const builtTopLevel = new Map<string, z.core.$ZodType>();

// The schemas of those of `keys` that are top-level keys, each built once, in TOP_LEVEL_KEYS order.
export function topLevelShapeOf(keys: readonly string[]): Partial<TopLevelShape> {
  const shape: Record<string, z.core.$ZodType> = {};
  for (const key of TOP_LEVEL_KEYS) {
    if (!keys.includes(key)) continue;
    let schema = builtTopLevel.get(key);
    if (!schema) builtTopLevel.set(key, (schema = topLevelBuilders[key]()));
    shape[key] = schema;
  }
  return shape;
}

/** Every top-level key's schema. */
export const topLevelShape = (): TopLevelShape => topLevelShapeOf(TOP_LEVEL_KEYS) as TopLevelShape;

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
