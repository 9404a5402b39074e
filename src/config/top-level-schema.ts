import * as z from "../zod.js";
import { NOTICE_EVENTS } from "../core/hook-event.js";
import {
  DEFAULT_APPROVE_SECONDS,
  DEFAULT_REPLY_SECONDS,
  DEFAULT_COALESCE_SECONDS,
  DEFAULT_COOLDOWNS,
  DEFAULT_DEDUPE_SECONDS,
  DEFAULT_MAX_BODY_LENGTH,
  DEFAULT_MIN_TURN_SECONDS,
} from "../core/defaults.js";
import {
  about,
  coalesceSeconds,
  cooldown,
  escalateShape,
  keyByKey,
  localSinksOverSsh,
  minTurnSeconds,
  quietHours,
  template,
} from "./schema-parts.js";
import { service } from "./service-schema.js";

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

const topLevel = keyByKey(topLevelBuilders);

/** The top-level keys of the config file besides `sinks`. */
export const TOP_LEVEL_KEYS = topLevel.keys;
/** The schemas of those of the keys given that are top-level keys, each built once. */
export const topLevelShapeOf = topLevel.shapeOf;
/** Every top-level key's schema. */
export const topLevelShape = topLevel.whole;
