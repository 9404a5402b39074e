// The level each `notification_type` rings at: one table, read from the clients themselves (their
// bundled schemas and the code that sends each type), consumed by levelOf (format.ts) and written
// out in docs/levels.md (test/message/notification-types.test.ts holds the page to this list).
// A type hook-notify does not know rings as "needs you" (the safe side: a prompt is never missed)
// and is logged once (run-hook.ts), so that this list can grow.
import type { Level } from "../core/notification.js";
import { fnv1a64 } from "../fnv1a.js";
import { oneLine, stripControl, truncate } from "./text.js";

/** The levels a Notification event can have: needs you ("attention"), a notice, a failure, a
 * usage limit. "done" belongs to the end of a turn, which no notification_type means. */
export type NotificationLevel = Exclude<Level, "done">;

/** One notification_type as hook-notify sees it, after the client's adapter. */
export interface NotificationType {
  readonly type: string;
  readonly level: NotificationLevel;
  /** Who sends it (the client's own name for it, where its adapter renames it). */
  readonly sentBy: string;
  /** What it means, in a few words (docs/levels.md). */
  readonly what: string;
}

const CLAUDE = "Claude Code 2.1.332";

export const NOTIFICATION_TYPES: readonly NotificationType[] = [
  {
    type: "permission_prompt",
    level: "attention",
    sentBy: `${CLAUDE}; Qwen Code 0.24.4; Copilot CLI 1.0.102; Gemini CLI 0.61.0 (ToolPermission); Codex, Crush (PermissionRequest); OpenCode, Kilo (permission.asked)`,
    what: "the agent asks to use a tool",
  },
  {
    type: "idle_prompt",
    level: "attention",
    sentBy: `${CLAUDE}; Qwen Code 0.24.4`,
    what: "the agent waits for your next prompt",
  },
  {
    type: "elicitation_dialog",
    level: "attention",
    sentBy: CLAUDE,
    what: "an MCP server asks you for input",
  },
  {
    type: "elicitation_url_dialog",
    level: "attention",
    sentBy: CLAUDE,
    what: "an MCP server asks you to open a link",
  },
  {
    type: "agent_needs_input",
    level: "attention",
    sentBy: CLAUDE,
    what: "a background agent (or auto mode) needs your choice",
  },
  {
    type: "worker_permission_prompt",
    level: "attention",
    sentBy: CLAUDE,
    what: "a teammate or worker agent asks for a permission",
  },
  {
    type: "auth_success",
    level: "info",
    sentBy: `${CLAUDE}; Qwen Code 0.24.4 (not notified: it sends one at every start)`,
    what: '"Claude Code login successful"',
  },
  {
    type: "agent_completed",
    level: "info",
    sentBy: CLAUDE,
    what: "a background agent finished (or failed)",
  },
  {
    type: "elicitation_complete",
    level: "info",
    sentBy: CLAUDE,
    what: "an MCP server confirmed an elicitation complete",
  },
  {
    type: "elicitation_response",
    level: "info",
    sentBy: CLAUDE,
    what: "the answer given to an MCP server's elicitation",
  },
  {
    type: "push_notification",
    level: "info",
    sentBy: CLAUDE,
    what: "the model's PushNotification tool",
  },
  {
    type: "plugin_notification",
    level: "info",
    sentBy: CLAUDE,
    what: "a plugin's notify call",
  },
  {
    type: "computer_use_enter",
    level: "info",
    sentBy: CLAUDE,
    what: "Claude starts using your computer",
  },
  {
    type: "computer_use_exit",
    level: "info",
    sentBy: CLAUDE,
    what: '"Claude is done using your computer"',
  },
  {
    type: "model_refusal_fallback",
    level: "info",
    sentBy: CLAUDE,
    what: "a refusal made Claude Code switch to another model",
  },
  {
    type: "auth_storage_failure",
    level: "failure",
    sentBy: CLAUDE,
    what: "the login's credentials could not be saved",
  },
  {
    type: "quota_auto_resume_fired",
    level: "limit",
    sentBy: CLAUDE,
    what: "the usage limit reset; Claude continues your task",
  },
  {
    type: "quota_auto_resume_stale",
    level: "limit",
    sentBy: CLAUDE,
    what: "the usage limit reset while the machine slept; press enter to continue",
  },
  {
    type: "quota_auto_resume_disabled",
    level: "limit",
    sentBy: CLAUDE,
    what: "automatic continue after the usage limit was turned off or stopped",
  },
];

const BY_TYPE = new Map(NOTIFICATION_TYPES.map((entry) => [entry.type, entry]));

/** The level of a Notification event by its type, and whether the type is in the table. A
 * Notification without a type (Droid sends none) waits for the person. */
export function notificationLevel(type: string | undefined): {
  level: NotificationLevel;
  known: boolean;
} {
  if (type === undefined) return { level: "attention", known: true };
  const entry = BY_TYPE.get(type);
  return entry ? { level: entry.level, known: true } : { level: "attention", known: false };
}

/** A type first seen is logged once a year at most: often enough to be noticed, never noise. */
const NEW_TYPE_WINDOW_SECONDS = 365 * 86_400;

// The log's line for a notification_type not in the table, and the seen marker that makes it
// once per type (pipeline/seen-markers.ts); undefined for a known type or none.
export function newTypeNote(
  type: string | undefined,
): { marker: string; windowMs: number; note: string } | undefined {
  if (notificationLevel(type).known || type === undefined) return undefined;
  const shown = JSON.stringify(truncate(oneLine(stripControl(type)), 80));
  return {
    marker: `nt-${fnv1a64(type)}-${String(NEW_TYPE_WINDOW_SECONDS)}`,
    windowMs: NEW_TYPE_WINDOW_SECONDS * 1000,
    note: `notification_type ${shown} is new to hook-notify: it rang as needs you (logged once; docs/levels.md says how to report it)`,
  };
}
