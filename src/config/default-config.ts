import type { SinkEntry } from "../core/config.js";
import {
  DEFAULT_APPROVE_SECONDS,
  DEFAULT_REPLY_SECONDS,
  DEFAULT_COALESCE_SECONDS,
  DEFAULT_DEDUPE_SECONDS,
  DEFAULT_MAX_BODY_LENGTH,
  DEFAULT_MIN_TURN_SECONDS,
} from "../core/defaults.js";
import { SINK_DEFAULT_EVENTS } from "../core/hook-event.js";
import type { Validated } from "./validate-config.js";

/** With no config file: one desktop and one sound sink for the default events (SINK_DEFAULT_EVENTS). */
export const DEFAULT_CONFIG_JSON = {
  sinks: { desktop: { type: "desktop" }, sound: { type: "sound" } },
};

// DEFAULT_CONFIG_JSON as validateConfig returns it (every default applied), written out so that a
// run with no config file builds no schema and loads no zod. test/config/default-config.test.ts
// holds it equal to validateConfig's answer. A new object each call: callers add to its arrays.
export function defaultConfig(): Validated {
  return {
    value: {
      enabled: true,
      sinks: {
        desktop: entry("desktop", { backend: "auto", appName: "hook-notify", focusSeconds: 600 }),
        sound: entry("sound", {}),
      },
      templates: undefined,
      maxBodyLength: DEFAULT_MAX_BODY_LENGTH,
      allowProjectSinks: false,
      dedupeSeconds: DEFAULT_DEDUPE_SECONDS,
      cooldown: undefined,
      minTurnSeconds: DEFAULT_MIN_TURN_SECONDS,
      quietHours: undefined,
      localSinksOverSsh: false,
      dnd: "respect",
      coalesceSeconds: DEFAULT_COALESCE_SECONDS,
      escalate: undefined,
      approveWhen: "away",
      approveSeconds: DEFAULT_APPROVE_SECONDS,
      approveReplyTopic: undefined,
      approveSink: undefined,
      replySink: undefined,
      replySeconds: DEFAULT_REPLY_SECONDS,
      service: undefined,
    },
    issues: [],
    secrets: [],
    unresolved: {},
  };
}

function entry(type: string, options: Record<string, unknown>): SinkEntry {
  const events = [...SINK_DEFAULT_EVENTS];
  return { name: type, type, events, when: "always", enabled: true, timeoutMs: undefined, options };
}
