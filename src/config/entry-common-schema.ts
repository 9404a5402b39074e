// The keys every sink entry has, whatever its type: one builder per key, so that validating an
// entry builds the schemas of the keys it has (all of them for the JSON Schema).
import * as z from "../zod.js";
import { NOTICE_EVENTS, SINK_DEFAULT_EVENTS } from "../core/hook-event.js";
import { DEFAULT_IDLE_SECONDS } from "../core/defaults.js";
import {
  about,
  coalesceSeconds,
  cooldown,
  escalateShape,
  keyByKey,
  localSinksOverSsh,
  minTurnSeconds,
  quietHours,
} from "./schema-parts.js";

const commonEntryBuilders = {
  events: () =>
    z.optional(
      z
        .array(z.enum(NOTICE_EVENTS))
        .check(
          about(
            "Events this sink notifies on: hook events, and those `hook-notify watch` announces (SessionIdle, ComputerError, ComputerRecovered, ControlsChanged, DailyDigest, UsageAlert). A sink without `events` gets Notification, Stop, SubagentStop, SessionEnd, StopFailure and PermissionDenied, AgentNotify (the agent's own notify tool, `hook-notify mcp`), and every watch event.",
            [...SINK_DEFAULT_EVENTS],
          ),
        ),
    ),
  when: () =>
    z.optional(
      z
        .enum(["always", "failure", "away"])
        .check(
          about(
            '"failure": only failures, i.e. SessionEnd with reason error or other, and StopFailure; "away": only when the session\'s terminal (or tmux pane) does not have the focus or you have been idle `idleSeconds` (checked in the background worker; when no probe can tell, it notifies); "always": every event in `events`.',
            "always",
          ),
        ),
    ),
  idleSeconds: () =>
    z.optional(
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
  digest: () =>
    z.optional(
      z
        .string()
        .check(
          z.regex(/^(return|([01]\d|2[0-3]):[0-5]\d)$/, 'expected "return" or a time "HH:MM"'),
          about(
            'Hold this sink\'s notifications while the presence probes say you are away, and send them as one digest: "return" when the probes say you are back (or can no longer tell), "HH:MM" at that local time. Checked in the background worker. While you are there (or no probe can tell) each notification goes as usual, unless "when": "away" skips it.',
          ),
        ),
    ),
  escalate: () =>
    z.optional(
      escalateShape().check(
        about(
          "When this sink delivered an event that needs you (a permission or idle prompt, a failure) and you have not answered the session within afterSeconds, the sinks in `to` get a follow-up. One step, or an array of steps with increasing afterSeconds (a chain: each step is cancelled too once you answer).",
        ),
      ),
    ),
  fallback: () =>
    z.optional(
      z
        .array(z.string().check(z.minLength(1)))
        .check(
          z.minLength(1),
          about(
            'Sinks that get a notification this sink gave up on (a permanent error, or its retries ran out), once each, marked as a fallback, e.g. ["mail"]. A sink with "events": [] serves only as a fallback. A cycle is refused.',
          ),
        ),
    ),
  enabled: () =>
    z.optional(z.boolean().check(about("false turns this sink off without deleting it.", true))),
  timeoutSeconds: () =>
    z.optional(
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
  quietHours: () =>
    z.optional(
      quietHours().check(
        about(
          'Quiet hours for this sink, whatever its kind (a remote sink too), e.g. "22:00-07:00" in local time; "" lifts the top-level ones for it. Default: the top-level quietHours for desktop and sound, none for remote sinks.',
        ),
      ),
    ),
  cooldown: () =>
    z.optional(
      cooldown().check(
        about(
          "Cool-down seconds per event kind for this sink, merged over the top-level ones and the default.",
        ),
      ),
    ),
  minTurnSeconds: () =>
    z.optional(
      minTurnSeconds().check(
        about(
          "A Stop reaches this sink only when the turn took at least this many seconds. Default: the top-level minTurnSeconds.",
        ),
      ),
    ),
  localSinksOverSsh: () =>
    z.optional(
      localSinksOverSsh().check(
        about(
          "true: this desktop or sound sink still runs over SSH or in a container without a display. Default: the top-level localSinksOverSsh.",
        ),
      ),
    ),
  coalesceSeconds: () =>
    z.optional(
      coalesceSeconds().check(
        about(
          "Subagent coalescing window for this sink; 0 gives it every SubagentStop on its own. Default: the top-level coalesceSeconds.",
        ),
      ),
    ),
};

/** The common keys' schemas, built key by key (`shapeOf`) or all (`whole`); `keys` in order. */
export const commonEntry = keyByKey(commonEntryBuilders);
