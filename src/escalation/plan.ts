// Which sinks get a follow-up when nobody answers the session, and what that follow-up says. Pure.
import type { Config, Escalate } from "../core/config.js";
import { QUIET_LEVELS, type Notification } from "../core/notification.js";
import type { NoticeEvent } from "../core/hook-event.js";
import { own } from "../own.js";

/** One follow-up to send unless the session is answered first. */
export interface PlannedEscalation {
  sinkName: string;
  afterSeconds: number;
  /** The follow-up: a copy of the notification with its own stable id, marked as such. */
  notification: Notification;
  /**
   * "prompt": only the session's next prompt answers it. "prompt-or-moved": for a prompt that
   * blocks the agent, its next Stop (the person answered and the agent went on) counts too.
   */
  cancelOn: "prompt" | "prompt-or-moved";
}

// True for an event a person must act on: a Notification that needs you (by its type, in
// message/notification-types.ts; Droid sends none and always waits), a failure; a Stop only when
// the escalation's `events` lists it. A notice ("info") and a usage limit never escalate, even
// when `events` names their event.
export function needsPerson(notification: Notification, events?: readonly NoticeEvent[]): boolean {
  if (events && !events.includes(notification.event)) return false;
  if (QUIET_LEVELS.includes(notification.level)) return false;
  if (notification.failure) return true;
  // The agent said it waits for the person (hook-notify mcp's notify, level needs-you).
  if (notification.event === "AgentNotify") return notification.level === "attention";
  if (notification.event === "Notification") return notification.level === "attention";
  return events !== undefined && notification.event !== "SubagentStop";
}

// The escalations of one notification: the top-level chain and those of the sinks it went to
// (`planned`). Step n of every chain is stage n; per stage, one follow-up per target sink (the
// earliest wins). Each stage's follow-up has its own stable id. None without a session to answer.
export function planEscalations(
  notification: Notification,
  config: Config,
  planned: readonly string[],
): PlannedEscalation[] {
  if (!notification.sessionId || planned.length === 0) return [];
  const chains: Escalate[][] = [
    ...(config.escalate ? [config.escalate] : []),
    ...planned.map((name) => config.sinks[name]?.escalate ?? []),
  ];
  const stages: Map<string, number>[] = [];
  for (const chain of chains) {
    chain.forEach((step, index) => {
      if (!needsPerson(notification, step.events)) return;
      const earliest = (stages[index] ??= new Map());
      for (const to of step.to) {
        if (!own(config.sinks, to)) continue;
        earliest.set(to, Math.min(earliest.get(to) ?? Infinity, step.afterSeconds));
      }
    });
  }
  const cancelOn = notification.event === "Notification" ? "prompt-or-moved" : "prompt";
  return stages.flatMap((earliest, index) =>
    [...earliest].map(([sinkName, afterSeconds]) => ({
      sinkName,
      afterSeconds,
      notification: followUp(notification, afterSeconds, index + 1),
      cancelOn,
    })),
  );
}

// "Still waiting after 5 min: <title>"; the id is derived, so every retry and restart keeps it:
// `<id>.followup` for the first step of a chain, `<id>.followup2`, `<id>.followup3`… after it.
export function followUp(notification: Notification, afterSeconds: number, step = 1): Notification {
  const label = `still waiting after ${waitLabel(afterSeconds)}`;
  return {
    ...notification,
    id: followUpId(notification.id, step),
    title: `Still waiting after ${waitLabel(afterSeconds)}: ${notification.title}`.slice(0, 200),
    level: notification.failure ? "failure" : "attention",
    followUp: { of: notification.id, afterSeconds, label },
  };
}

export function followUpId(id: string, step: number): string {
  return step <= 1 ? `${id}.followup` : `${id}.followup${String(step)}`;
}

// 300 → "5 min", 90 → "90 s", 7200 → "2 h".
export function waitLabel(seconds: number): string {
  if (seconds < 120 && seconds % 60 !== 0) return `${String(seconds)} s`;
  if (seconds < 7200 || seconds % 3600 !== 0) return `${String(Math.round(seconds / 60))} min`;
  return `${String(seconds / 3600)} h`;
}
