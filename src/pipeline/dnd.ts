// What the system's Do Not Disturb changes, decided purely from what was read (presence/dnd.ts,
// at the edge in run-hook.ts) and the config's "dnd":
// - "respect" (default): banners still go (the system holds them while it is on); an audible
//   sink (sound, voice) is not played;
// - "remote": the local sinks (desktop, sound) are skipped, and "when": "away" sinks count the
//   person as away (they go without asking the presence probes);
// - "ignore": nothing changes (and nothing is read).
import type { DndMode } from "../core/config.js";
import type { DndReading } from "../presence/dnd.js";
import type { PolicyPlan } from "./policy.js";
import type { RoutedDelivery } from "../delivery/plan.js";

// True when the plan has a delivery (sent now, or held for coalescing) that Do Not Disturb would
// change: only then is it read.
export function dndMatters(plan: PolicyPlan, mode: DndMode): boolean {
  return mode !== "ignore" && [...plan.deliveries, ...plan.held].some((d) => dndChanges(d, mode));
}

// Whether Do Not Disturb changes one sink's delivery (doctor reads it only for such a sink).
export function dndChanges(
  delivery: Pick<RoutedDelivery, "sink" | "entry">,
  mode: DndMode,
): boolean {
  if (mode === "ignore") return false;
  if (mode === "respect") return delivery.sink.audible === true;
  return !delivery.sink.remote || delivery.entry.when === "away";
}

/** The plan with Do Not Disturb applied, and whether "when": "away" sinks go as if away. */
export interface DndPlan {
  plan: PolicyPlan;
  forceAway: boolean;
}

export function applyDnd(plan: PolicyPlan, mode: DndMode, reading: DndReading): DndPlan {
  if (mode === "ignore" || reading.on !== true) return { plan, forceAway: false };
  const out: PolicyPlan = {
    ...plan,
    deliveries: [],
    held: [],
    skipped: [...plan.skipped],
    suppressed: [...plan.suppressed],
  };
  const reason =
    mode === "respect"
      ? `${reading.detail}: it is not played or spoken (banners still go; the system holds them). "dnd": "ignore" plays it`
      : `${reading.detail}: local sinks are skipped ("dnd": "remote")`;
  const skips = (d: RoutedDelivery) =>
    mode === "respect" ? d.sink.audible === true : !d.sink.remote;
  const suppress = (delivery: RoutedDelivery): void => {
    out.suppressed.push({ ...delivery, rule: "dnd", reason });
    out.skipped.push({ sink: delivery.entry.name, rule: "dnd", reason });
  };
  for (const delivery of plan.deliveries) {
    if (skips(delivery)) suppress(delivery);
    else out.deliveries.push(delivery);
  }
  // A SubagentStop held for coalescing is sent later by the worker, merged: not as a sound now.
  for (const held of plan.held) {
    if (skips(held)) suppress(held);
    else out.held.push(held);
  }
  const forceAway = mode === "remote" && out.deliveries.some((d) => d.entry.when === "away");
  return { plan: out, forceAway };
}
