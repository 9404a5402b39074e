// The hook's part in escalation: recording that the person answered a session, and which
// follow-ups a notification schedules. Cheap: a small file write, no program, no probe.
import type { Config } from "../core/config.js";
import type { Deps } from "../deps.js";
import type { Notification } from "../core/notification.js";
import type { NoticeEvent } from "../core/hook-event.js";
import type { PolicyPlan } from "./policy.js";
import { recordAnswer } from "../escalation/answers.js";
import { planEscalations, type PlannedEscalation } from "../escalation/plan.js";

// UserPromptSubmit: the person typed into the session; its pending follow-ups are void. The
// event is otherwise ignored, so only its session id is read. Returns the session id.
export function noteAnswer(raw: string, deps: Deps): string | undefined {
  let sessionId: unknown;
  try {
    const event = JSON.parse(raw) as Record<string, unknown>;
    sessionId = event.session_id ?? event.sessionId;
  } catch {
    return undefined;
  }
  if (typeof sessionId !== "string" || sessionId === "") return undefined;
  recordAnswer(deps, sessionId, "prompt", deps.now());
  return sessionId;
}

/** Events that show the agent went on: a prompt that blocked it was answered. */
const MOVED_ON: readonly NoticeEvent[] = ["Stop", "SessionEnd"];

// A Stop or SessionEnd marks the session as moved on, only when some escalation is configured.
export function noteMovedOn(notification: Notification, config: Config, deps: Deps): void {
  if (!notification.sessionId || !MOVED_ON.includes(notification.event)) return;
  const configured = config.escalate ?? Object.values(config.sinks).find((e) => e.escalate);
  if (configured) recordAnswer(deps, notification.sessionId, "moved", deps.now());
}

// The follow-ups for what the noise rules let through (nothing escalates a suppressed event).
export function escalationsOf(
  notification: Notification,
  config: Config,
  plan: PolicyPlan,
): PlannedEscalation[] {
  const planned = [...plan.deliveries, ...plan.held].map((d) => d.entry.name);
  return planEscalations(notification, config, planned);
}
