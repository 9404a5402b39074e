// The policy's rules about repeats: the same event again (dedupe), the same kind of event too
// soon (cooldown), each claiming a seen marker; and a SubagentStop held to merge with the next.
import type { Config } from "../core/config.js";
import type { Notification } from "../core/notification.js";
import { DEFAULT_COOLDOWNS, MAX_HOLD_MS } from "../core/defaults.js";
import type { RoutedDelivery } from "../delivery/plan.js";
import { fnv1a64 } from "../fnv1a.js";
import type { PolicyEvent, PolicyFacts } from "./policy.js";
import type { RuleVerdict } from "./policy-rules.js";

const SALIENT_MAX = 256;

export function dedupeVerdict(seconds: number): RuleVerdict {
  return { rule: "dedupe", reason: `the same event was notified less than ${seconds} s ago` };
}

export function cooldownRule(
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
export function coalesceSeconds(
  d: RoutedDelivery,
  event: PolicyEvent,
  config: Config,
  facts: PolicyFacts,
) {
  if (event.name !== "SubagentStop" || d.notification.failure || !facts.coalesce) return 0;
  return d.entry.coalesceSeconds ?? config.coalesceSeconds;
}

export function holdOf(seconds: number): { holdMs: number; reason: string } {
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

// "idle_prompt" notifications, or a message saying the agent waits for input.
export function isIdlePrompt(event: PolicyEvent): boolean {
  if (event.name !== "Notification") return false;
  return (
    event.notificationType === "idle_prompt" ||
    /waiting for (your )?input/i.test(event.message ?? "")
  );
}
