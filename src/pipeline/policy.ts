import type { Config } from "../core/config.js";
import { fnv1a64 } from "../fnv1a.js";
import type { Notification } from "../core/notification.js";
import type { HookEvent, NoticeEvent } from "../core/hook-event.js";
import type { RoutePlan } from "./route.js";
import type { Held, RoutedDelivery } from "../delivery/plan.js";
import type { Skip } from "../journal/line.js";
import type { ClaimMarker } from "./seen-markers.js";
import { limitWindow } from "../message/usage-limit.js";
import { DEFAULT_COOLDOWNS, MAX_HOLD_MS } from "../core/defaults.js";

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

const SALIENT_MAX = 256;

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

type RuleVerdict = { rule: Rule; reason: string } | undefined;

function localRule(
  d: RoutedDelivery,
  event: PolicyEvent,
  config: Config,
  facts: PolicyFacts,
): RuleVerdict {
  const { entry, sink } = d;
  const overSsh = entry.localSinksOverSsh ?? config.localSinksOverSsh;
  if (!sink.remote && facts.remoteSession && !overSsh) {
    return {
      rule: "ssh",
      reason: `${facts.remoteSession}: a desktop or sound here would not reach you (localSinksOverSsh: true or HOOK_NOTIFY_LOCAL_SINKS=1 keeps them)`,
    };
  }
  if (!sink.remote && !overSsh && facts.headlessContainer) {
    return {
      rule: "container",
      reason: `${facts.headlessContainer}: a desktop or sound here would not reach you (localSinksOverSsh: true or HOOK_NOTIFY_LOCAL_SINKS=1 keeps them)`,
    };
  }
  const quiet = entry.quietHours ?? (sink.remote ? undefined : config.quietHours);
  if (quiet && isWithin(quiet, facts.localMinutes)) {
    return { rule: "quiet-hours", reason: `quiet hours ${quiet} (local time)` };
  }
  const minTurn = entry.minTurnSeconds ?? config.minTurnSeconds;
  const short = facts.turnMs !== undefined && facts.turnMs < minTurn * 1000;
  if (event.name === "Stop" && minTurn > 0 && short && !d.notification.failure) {
    const took = Math.round((facts.turnMs ?? 0) / 1000);
    return { rule: "min-turn", reason: `the turn took ${took} s, under minTurnSeconds ${minTurn}` };
  }
  return backgroundRule(event);
}

// Claude Code ends a turn while its background tasks (subagents, shells) still run, and starts
// another turn, with its own Stop, when they end: "done" waits for that Stop.
function backgroundRule(event: PolicyEvent): RuleVerdict {
  if (event.name !== "Stop") return undefined;
  const tasks = event.raw["background_tasks"];
  if (!Array.isArray(tasks)) return undefined;
  const running = tasks.filter(
    (task: unknown) =>
      task !== null &&
      typeof task === "object" &&
      (task as { status?: unknown }).status === "running",
  ).length;
  if (running === 0) return undefined;
  const what = running === 1 ? "1 background task is" : `${String(running)} background tasks are`;
  return {
    rule: "background",
    reason: `${what} still running: the Stop of the turn that ends them says done`,
  };
}

function dedupeVerdict(seconds: number): RuleVerdict {
  return { rule: "dedupe", reason: `the same event was notified less than ${seconds} s ago` };
}

function cooldownRule(
  d: RoutedDelivery,
  event: PolicyEvent,
  config: Config,
  facts: PolicyFacts,
): RuleVerdict {
  if (d.notification.failure) return undefined; // failures are never cooled down
  const kind = isIdlePrompt(event) ? "idle_prompt" : event.name;
  const table = { ...DEFAULT_COOLDOWNS, ...config.cooldown, ...d.entry.cooldown };
  const seconds = Math.max(
    table[kind] ?? 0,
    kind === "idle_prompt" ? (table.Notification ?? 0) : 0,
  );
  if (seconds <= 0) return undefined;
  const key = [d.notification.client, event.sessionId, kind, d.entry.name].join("\0");
  if (facts.claim(`cd-${fnv1a64(key)}-${seconds}`, seconds * 1000)) return undefined;
  return {
    rule: "cooldown",
    reason: `${kind === "idle_prompt" ? "an idle prompt" : event.name} for this session was notified less than ${seconds} s ago`,
  };
}

// Subagent coalescing: a SubagentStop waits this many seconds for the session's next ones.
function coalesceSeconds(
  d: RoutedDelivery,
  event: PolicyEvent,
  config: Config,
  facts: PolicyFacts,
) {
  if (event.name !== "SubagentStop" || d.notification.failure || !facts.coalesce) return 0;
  return d.entry.coalesceSeconds ?? config.coalesceSeconds;
}

function holdOf(seconds: number): { holdMs: number; reason: string } {
  return {
    holdMs: seconds * 1000,
    reason: `held ${String(seconds)} s for the session's next SubagentStop events; they arrive as one notification (at most ${String(MAX_HOLD_MS / 1000)} s later; coalesceSeconds: 0 turns this off)`,
  };
}

// One name per event: client, session, event name and the salient text (the first 256 characters
// of each, plus its length, so a 100 KiB last message costs no more to hash than a short one).
export function dedupeMarker(
  event: PolicyEvent,
  notification: Notification,
  seconds: number,
): string {
  const texts = [
    event.message,
    event.reason,
    event.agentId,
    event.agentType,
    notification.lastMessage,
  ];
  const salient = texts.map((text) =>
    text === undefined ? "" : `${text.length}:${text.slice(0, SALIENT_MAX)}`,
  );
  const key = [notification.client ?? "", event.sessionId ?? "", event.name, ...salient].join("\0");
  return `dd-${fnv1a64(key)}-${seconds}`;
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

// "idle_prompt" notifications, or a message saying the agent waits for input.
export function isIdlePrompt(event: PolicyEvent): boolean {
  if (event.name !== "Notification") return false;
  return (
    event.notificationType === "idle_prompt" ||
    /waiting for (your )?input/i.test(event.message ?? "")
  );
}

// "22:00-07:00" holds 23:30 and 06:59, not 07:00; a window may cross midnight; "a-a" is empty.
export function isWithin(window: string, minutes: number): boolean {
  const match = /^(\d\d):(\d\d)-(\d\d):(\d\d)$/.exec(window);
  if (!match) return false;
  const [, h1, m1, h2, m2] = match.map(Number) as [number, number, number, number, number];
  const start = h1 * 60 + m1;
  const end = h2 * 60 + m2;
  return start <= end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
}
