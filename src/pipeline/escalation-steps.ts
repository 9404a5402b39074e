// The hook's part in escalation: recording that the person answered a session, and which
// follow-ups a notification schedules. Cheap: a small file write, no program, no probe.
import type { Config } from "../core/config.js";
import type { Deps } from "../deps.js";
import type { Notification } from "../core/notification.js";
import type { NoticeEvent } from "../core/hook-event.js";
import type { PolicyPlan } from "./policy.js";
import { isWithin } from "./policy-rules.js";
import type { Skip } from "../journal/line.js";
import { findSink } from "../sinks/index.js";
import { promptIsPerson, recordAnswer } from "../escalation/answers.js";
import { planEscalations, type PlannedEscalation } from "../escalation/plan.js";

// UserPromptSubmit: the person typed into the session; its pending follow-ups are void. A prompt
// a machine wrote (its `source`: a /loop wakeup, a scheduled task) answers nothing. The event is
// otherwise ignored, so only its session id and source are read. Returns the session id.
export function noteAnswer(raw: string, deps: Deps): string | undefined {
  let sessionId: unknown;
  let source: unknown;
  try {
    const event = JSON.parse(raw) as Record<string, unknown>;
    sessionId = event.session_id ?? event.sessionId;
    source = event.source;
  } catch {
    return undefined;
  }
  if (typeof sessionId !== "string" || sessionId === "") return undefined;
  if (promptIsPerson(source)) recordAnswer(deps, sessionId, "prompt", deps.now());
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

// Quiet hours are respected by follow-ups too: one that would come due inside its sink's quiet
// hours (the sink's own, or the top-level ones for a desktop or sound sink) is not queued, and the
// run's log line says so.
export function withoutQuietFollowUps(
  escalations: readonly PlannedEscalation[],
  config: Config,
  now: number,
): { escalations: PlannedEscalation[]; skipped: Skip[] } {
  const kept: PlannedEscalation[] = [];
  const skipped: Skip[] = [];
  for (const escalation of escalations) {
    const entry = config.sinks[escalation.sinkName];
    const remote = entry ? findSink(entry.type)?.remote : undefined;
    const quiet = entry?.quietHours ?? (remote ? undefined : config.quietHours);
    const due = new Date(now + escalation.afterSeconds * 1000);
    const minutes = due.getHours() * 60 + due.getMinutes();
    if (!quiet || !isWithin(quiet, minutes)) {
      kept.push(escalation);
      continue;
    }
    const at = `${String(due.getHours()).padStart(2, "0")}:${String(due.getMinutes()).padStart(2, "0")}`;
    skipped.push({
      sink: escalation.sinkName,
      rule: "quiet-hours",
      reason: `follow-up due at ${at}, in quiet hours ${quiet} (local time)`,
    });
  }
  return { escalations: kept, skipped };
}
