// What a run's log line says of its event and notification (run-hook.ts): the event's facts, the
// problems found reading it and the config, a notification type seen for the first time, and the
// follow-ups it schedules.
import { join } from "node:path";
import { stateDir } from "../config/paths.js";
import type { LoadedConfig } from "../config/load-config.js";
import type { Deps } from "../deps.js";
import type { Notification } from "../core/notification.js";
import type { HookEvent } from "../core/hook-event.js";
import type { EscalationRecord, RunRecord } from "../journal/line.js";
import type { PlannedEscalation } from "../escalation/plan.js";
import { newTypeNote } from "../message/notification-types.js";
import { claimMarker } from "./seen-markers.js";

// The event and the notification made of it, as the record names them.
export function describeRun(
  record: RunRecord,
  event: HookEvent,
  notification: Notification,
  config: LoadedConfig,
): void {
  record.event = event.name;
  record.client = notification.client;
  record.failure = notification.failure;
  record.project = notification.project;
  record.session = event.sessionId;
  record.id = notification.id;
  record.issues = [...(event.dropped ?? []).map((why) => `hook event: ${why}`), ...config.issues];
  if (config.error) record.error = { code: config.error.code, message: config.error.message };
}

// A notification_type the table does not know is logged, the first time it is seen (a seen
// marker of a year), so that the table can grow (message/notification-types.ts).
export function noteNewType(record: RunRecord, event: HookEvent, deps: Deps): void {
  const note = newTypeNote(event.name === "Notification" ? event.notificationType : undefined);
  if (note && claimMarker(join(stateDir(deps), "seen"), note.marker, note.windowMs, deps.now()))
    record.notes = [note.note];
}

// A follow-up the run schedules, as its log line names it.
export function escalationRecord(escalation: PlannedEscalation): EscalationRecord {
  const { sinkName: sink, afterSeconds, notification } = escalation;
  return { sink, afterSeconds, id: notification.id };
}
