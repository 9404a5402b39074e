// What --dry-run prints (run-report.ts): one JSON line per planned, held back or coalesced
// delivery in the config's order, each with what it would send and, for a "when": "away" sink,
// what the presence probes say now; then one line per follow-up it would schedule.
import type { Deps } from "../deps.js";
import type { Suppressed } from "../pipeline/policy.js";
import type { Held, RoutedDelivery } from "../delivery/plan.js";
import type { Presence } from "../presence/probe.js";
import type { HookRun } from "../pipeline/run-hook.js";
import { scrubValue } from "../redact.js";
import { printLines } from "./run-output.js";

// Prints the plan of a --dry-run to stdout.
export function printPlan(run: HookRun, deps: Deps): void {
  const secrets = run.config?.secrets ?? [];
  const lines: string[] = [];
  // A delivery a noise rule held back prints the same line, saying which rule and why, and one
  // held for subagent coalescing says so; the lines keep the config's order.
  const order = Object.keys(run.config?.value.sinks ?? {});
  const held = (run.plan?.held ?? []).map((d: Held) => ({ ...d, coalesce: d.reason }));
  const planned: (RoutedDelivery & Partial<Suppressed> & { coalesce?: string })[] = [
    ...(run.plan?.deliveries ?? []),
    ...(run.plan?.suppressed ?? []),
    ...held,
  ].sort((a, b) => order.indexOf(a.entry.name) - order.indexOf(b.entry.name));
  for (const { entry, sink, notification, rule, reason, coalesce } of planned) {
    const line = {
      sink: entry.name,
      type: entry.type,
      target: sink.describeTarget(entry.options),
      event: notification.event,
      failure: notification.failure,
      title: notification.title,
      body: notification.body,
      payload: sink.render(notification, entry.options, deps),
      ...(rule ? { suppressed: `${rule}: ${reason ?? ""}` } : {}),
      ...(coalesce ? { coalesce } : {}),
      ...(entry.when === "away" && !rule ? awayLine(run.presence) : {}),
    };
    lines.push(JSON.stringify(scrubValue(line, secrets)));
  }
  for (const escalation of run.escalations ?? []) {
    const { sinkName, afterSeconds, notification } = escalation;
    const line = {
      sink: sinkName,
      escalate: `after ${String(afterSeconds)} s unless the session is answered (its next prompt)`,
      id: notification.id,
      title: notification.title,
    };
    lines.push(JSON.stringify(scrubValue(line, secrets)));
  }
  printLines(lines);
}

// The "when": "away" rule and the presence answer it would use now (the worker asks again).
function awayLine(presence: Presence | undefined) {
  if (!presence) return { rule: "when: away" };
  const { state, probe, detail, idleSeconds, ms } = presence;
  const readings = presence.readings.map((r) => `${r.probe}: ${r.detail}`);
  return {
    rule: "when: away",
    presence: {
      state,
      probe,
      detail,
      ...(idleSeconds === undefined ? {} : { idleSeconds }),
      ms,
      readings,
    },
    wouldSend: state !== "present",
  };
}
