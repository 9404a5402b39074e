import type { Config } from "../core/config.js";
import type { HookEvent, NoticeEvent } from "../core/hook-event.js";
import type { RoutePlan } from "./route.js";
import type { Held, RoutedDelivery } from "../delivery/plan.js";
import type { Skip } from "../journal/line.js";
import type { ClaimMarker } from "./seen-markers.js";
import { limitWindow } from "../message/usage-limit.js";
import {
  coalesceSeconds,
  cooldownRule,
  dedupeMarker,
  dedupeVerdict,
  holdOf,
} from "./policy-repeats.js";
import { localRule } from "./policy-rules.js";

/** What the rules read of an event: a hook event, or one that `hook-notify watch` raised. */
export type PolicyEvent = Omit<HookEvent, "name"> & { name: NoticeEvent };

/** The "signal, not noise" rules, in the order they are checked. */
export type Rule =
  | "ssh"
  | "container"
  | "quiet-hours"
  | "min-turn"
  | "background"
  | "dedupe"
  | "limit"
  | "cooldown"
  | "dnd";

/** A delivery that route() planned and a rule held back. */
export interface Suppressed extends RoutedDelivery {
  rule: Rule;
  reason: string;
}

export interface PolicyPlan extends RoutePlan {
  suppressed: Suppressed[];
  held: Held[];
}

/** What the rules need to know beyond the event and the config; I/O comes in as `claim`. */
export interface PolicyFacts {
  /** Minutes since local midnight. */
  localMinutes: number;
  /** Why this looks like a remote login ("SSH_CONNECTION is set"), or undefined. */
  remoteSession?: string | undefined;
  /** Why this looks like a container nobody sees or hears ("/.dockerenv, no DISPLAY…"), or undefined. */
  headlessContainer?: string | undefined;
  /** How long the turn that a Stop ends took, when the transcript tells. */
  turnMs?: number | undefined;
  /** Creates (or, for --dry-run, checks) a seen marker; false means "seen within the window". */
  claim: ClaimMarker;
  /** False for --wait: a person who asked to see the delivery gets it now, not merged later. */
  coalesce: boolean;
}

// Holds back the deliveries that would be noise (each suppressed one says which rule and why),
// and sets aside a SubagentStop that passed every rule for coalescing (`held`). Pure but for
// `facts.claim`, which is asked only once a delivery passed every other rule.
// The order matters, and is, per delivery: 1. ssh, 2. container, 3. quiet-hours, 4. min-turn,
// background (facts only, no I/O; the first that applies names the rule), 5. dedupe (claims one marker per
// event, only for a delivery that passed 1-4, so a held-back delivery never opens the window),
// 6. limit: a usage limit notifies once per reset window (usage-limit.ts claims one marker per
// event, like dedupe), 7. cooldown (claims its own marker, again only if nothing above applied),
// 8. coalescing: a SubagentStop that passed everything is held to merge with the session's next ones.
export function applyPolicy(
  plan: RoutePlan,
  event: PolicyEvent,
  config: Config,
  facts: PolicyFacts,
): PolicyPlan {
  const out: PolicyPlan = { deliveries: [], skipped: [...plan.skipped], suppressed: [], held: [] };
  let duplicate: boolean | undefined;
  let limitSeen: boolean | undefined;
  for (const delivery of plan.deliveries) {
    let verdict = localRule(delivery, event, config, facts);
    if (!verdict && config.dedupeSeconds > 0) {
      const marker = dedupeMarker(event, delivery.notification, config.dedupeSeconds);
      duplicate ??= !facts.claim(marker, config.dedupeSeconds * 1000);
      if (duplicate) verdict = dedupeVerdict(config.dedupeSeconds);
    }
    if (!verdict && delivery.notification.level === "limit") {
      const window = limitWindow(event, delivery.notification);
      limitSeen ??= !facts.claim(window.marker, window.seconds * 1000);
      if (limitSeen) verdict = { rule: "limit", reason: window.reason };
    }
    verdict ??= cooldownRule(delivery, event, config, facts);
    const holdSeconds = verdict ? 0 : coalesceSeconds(delivery, event, config, facts);
    if (holdSeconds > 0) out.held.push({ ...delivery, ...holdOf(holdSeconds) });
    else if (!verdict) out.deliveries.push(delivery);
    else {
      out.suppressed.push({ ...delivery, ...verdict });
      out.skipped.push({ sink: delivery.entry.name, ...verdict } satisfies Skip);
    }
  }
  return out;
}

// An SSH login: a desktop banner or a sound would appear on the remote machine, not before you.
// HOOK_NOTIFY_LOCAL_SINKS=1 says "they do reach me" (X forwarding, a container with /dev/snd).
export function remoteSessionOf(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (env.HOOK_NOTIFY_LOCAL_SINKS === "1") return undefined;
  if (env.SSH_CONNECTION) return "SSH session (SSH_CONNECTION is set)";
  if (env.SSH_TTY) return "SSH session (SSH_TTY is set)";
  return undefined;
}

/** What a container needs to show a banner or play a sound: any one of these. */
const WAYS_OUT = [
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "DBUS_SESSION_BUS_ADDRESS",
  "PULSE_SERVER",
] as const;

// A Linux container (docker, podman, systemd-nspawn…) with no display, session bus or sound server
// passed in: a desktop banner or a sound would go nowhere. `exists` is the only I/O.
export function headlessContainerOf(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
  exists: (path: string) => boolean,
): string | undefined {
  if (platform !== "linux" || env.HOOK_NOTIFY_LOCAL_SINKS === "1") return undefined;
  if (WAYS_OUT.some((name) => env[name])) return undefined;
  const marker = env.container
    ? `container=${env.container}`
    : ["/.dockerenv", "/run/.containerenv"].find(exists);
  if (!marker) return undefined;
  return `a container without a display (${marker}; no DISPLAY, WAYLAND_DISPLAY, DBUS_SESSION_BUS_ADDRESS or PULSE_SERVER)`;
}
