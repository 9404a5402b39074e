import type { Config, SinkEntry } from "../core/config.js";
import { FALLBACK_ONLY } from "../core/defaults.js";
import type { Notification } from "../core/notification.js";
import { findSink } from "../sinks/index.js";
import type { Skip } from "../journal/line.js";
import type { RoutedDelivery } from "../delivery/plan.js";

export interface RoutePlan {
  deliveries: RoutedDelivery[];
  skipped: Skip[];
}

// Decides which sinks get the notification. Pure.
export function route(notification: Notification, config: Config): RoutePlan {
  const plan: RoutePlan = { deliveries: [], skipped: [] };
  for (const entry of Object.values(config.sinks)) {
    const sink = findSink(entry.type);
    const reason =
      skipReason(notification, entry, config) ?? sink?.silentFor?.(notification, entry.options);
    if (reason || !sink)
      plan.skipped.push({ sink: entry.name, reason: reason ?? unknownType(entry) });
    else plan.deliveries.push({ entry, sink, notification });
  }
  return plan;
}

function skipReason(
  notification: Notification,
  entry: SinkEntry,
  config: Config,
): string | undefined {
  const off = switchedOff(entry, config);
  if (off) return off;
  if (entry.events.length === 0) return FALLBACK_ONLY;
  if (!entry.events.includes(notification.event))
    return `${notification.event} is not in its events`;
  if (entry.when === "failure" && !notification.failure) return "not a failure (when: failure)";
  const named = notification.event === "AgentNotify" ? notification.raw["sinks"] : undefined;
  if (Array.isArray(named) && !named.includes(entry.name))
    return "not among the sinks the agent named";
  return undefined;
}

// Why the config keeps this sink from every event: hook-notify or the entry switched off.
// `hook-notify test` asks the same question (and leaves events and "when" aside).
export function switchedOff(entry: SinkEntry, config: Config): string | undefined {
  if (!config.enabled) return "hook-notify is turned off (enabled: false)";
  if (!entry.enabled) return "sink turned off (enabled: false)";
  return undefined;
}

// The skip reason of an entry whose type no registered sink has.
export function unknownType(entry: SinkEntry): string {
  return `unknown type ${entry.type}`;
}
