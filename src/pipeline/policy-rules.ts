// The policy's rules that read only facts (no marker): where local sinks cannot reach you, quiet
// hours, a short turn, a turn whose background tasks still run.
import type { Config } from "../core/config.js";
import type { RoutedDelivery } from "../delivery/plan.js";
import type { PolicyEvent, PolicyFacts, Rule } from "./policy.js";

export type RuleVerdict = { rule: Rule; reason: string } | undefined;

export function localRule(
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

// "22:00-07:00" holds 23:30 and 06:59, not 07:00; a window may cross midnight; "a-a" is empty.
export function isWithin(window: string, minutes: number): boolean {
  const match = /^(\d\d):(\d\d)-(\d\d):(\d\d)$/.exec(window);
  if (!match) return false;
  const [, h1, m1, h2, m2] = match.map(Number) as [number, number, number, number, number];
  const start = h1 * 60 + m1;
  const end = h2 * 60 + m2;
  return start <= end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
}
