// What a run asks of the machine for its plan (run-hook.ts): the facts the noise rules read (the
// clock, the environment, the seen markers), the system's Do Not Disturb, and for --dry-run the
// presence probes. Each is read only when the plan needs it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { stateDir } from "../config/paths.js";
import { withDeadline } from "../abort.js";
import type { Deps } from "../deps.js";
import type { EventContext } from "../core/event-context.js";
import type { HookEvent } from "../core/hook-event.js";
import type { DndMode } from "../core/config.js";
import type { DndReading } from "../presence/dnd.js";
import type { Presence } from "../presence/probe.js";
import { DEFAULT_IDLE_SECONDS } from "../core/defaults.js";
import {
  headlessContainerOf,
  remoteSessionOf,
  type PolicyFacts,
  type PolicyPlan,
} from "./policy.js";
import { dndMatters } from "./dnd.js";
import { claimMarker, peekMarker } from "./seen-markers.js";

// The clock, the environment and the seen markers, for the noise rules; --dry-run only peeks.
// `owner`: the notification's id, written into the markers it claims (seen-markers.ts).
export function policyFacts(
  deps: Deps,
  event: HookEvent,
  context: EventContext,
  mode: "hook" | "wait" | "dry-run",
  owner?: string,
): PolicyFacts {
  const now = deps.now();
  const dir = join(stateDir(deps), "seen");
  const mark = mode === "dry-run" ? peekMarker : claimMarker;
  const started = event.name === "Stop" ? context.turnStartedAt : undefined;
  return {
    // A getter: the local time zone costs ~0.2 ms to load, and only quiet hours need it.
    get localMinutes() {
      const local = new Date(now);
      return local.getHours() * 60 + local.getMinutes();
    },
    remoteSession: remoteSessionOf(deps.env),
    // A getter: two stat calls that only a desktop or sound delivery needs.
    get headlessContainer() {
      return headlessContainerOf(deps.env, deps.platform, existsSync);
    },
    turnMs: started === undefined ? undefined : now - started,
    claim: (name, windowMs) => mark(dir, name, windowMs, now, owner),
    coalesce: mode !== "wait",
  };
}

// The system's Do Not Disturb, read (one program at most, bounded) only when it would change a
// delivery of this plan.
export async function readDndFor(
  plan: PolicyPlan,
  mode: DndMode,
  deps: Deps,
): Promise<DndReading | undefined> {
  if (!dndMatters(plan, mode)) return undefined;
  const { readDnd } = await import("../presence/dnd.js");
  return withDeadline(5_000, (signal) => readDnd(deps, signal));
}

/** The worker, as it starts: Do Not Disturb is read beside its own start and kept
 * (presence/dnd.ts), and its D-Bus connection for banners opened (sinks/desktop-bus.ts), so the
 * first event's run waits for neither. */
export async function startAhead(deps: Deps): Promise<void> {
  const dnd = await import("../presence/dnd.js");
  dnd.readDndAhead(deps);
  // Whichever of the two opens the connection, the daemon's Inhibited is asked behind Hello.
  const ahead = { inhibited: dnd.readsInhibited(deps) };
  (await import("../sinks/desktop-bus.js")).openBusAhead(deps.env, deps.platform, ahead);
}

// --dry-run is for a person, not the agent: it may ask the probes (the hook never does).
export async function dryRunPresence(plan: PolicyPlan, deps: Deps): Promise<Presence | undefined> {
  const away = plan.deliveries.find((d) => d.entry.when === "away");
  if (!away) return undefined;
  const { presenceNow } = await import("../delivery/presence-gate.js");
  return presenceNow({
    env: deps.env,
    pid: deps.ppid ?? 0,
    idleSeconds: away.entry.idleSeconds ?? DEFAULT_IDLE_SECONDS,
    platform: deps.platform,
    now: deps.now(),
  });
}
