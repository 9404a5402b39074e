// Is the person watching this agent session? Each platform's probes (probes.ts) say what they
// see; this file matches the application in front to the session's terminal and decides:
// away when the terminal is not focused or the person idled `idleSeconds`, present when a probe
// saw the focus and one measured the idle time, unknown otherwise (which notifies: never drop a
// notification on a guess).
import { ancestorsOf, mapParents, procParent, psParents, type ParentOf } from "./ancestors.js";
import { planProbes, runProbes } from "./probes.js";
import type { Reading } from "./reading.js";

export type PresenceState = "present" | "away" | "unknown";

export interface Presence {
  state: PresenceState;
  /** The probe that decided ("tmux", "xprintidle", …), or "none". */
  probe: string;
  /** Why, in a few words; never event text. */
  detail: string;
  idleSeconds?: number;
  /** Every probe's answer, in the order they were planned: the log says which probe said what. */
  readings: Reading[];
  /** How long probing took (the probes run concurrently). */
  ms: number;
}

export interface PresenceInput {
  env: NodeJS.ProcessEnv;
  /** A process of the agent session (the hook's parent): its ancestors include the terminal. */
  pid: number;
  /** Idle this long counts as away. */
  idleSeconds: number;
  signal: AbortSignal;
  platform?: NodeJS.Platform;
  /** Milliseconds since the epoch (tmux reports client activity as a time). */
  now?: number;
  /** Per probe program; default 1 s (5 s for PowerShell, which starts slowly). */
  timeoutMs?: number;
}

// Runs the probes that fit this system and decides. Never throws; a failed probe is "unknown".
export async function probePresence(input: PresenceInput): Promise<Presence> {
  const started = performance.now();
  const platform = input.platform ?? process.platform;
  const names = planProbes(platform, input.env);
  const found = await runProbes(names, { ...input, platform, now: input.now ?? Date.now() });
  const readings = await matchFocus(found.readings, input, platform, found.parents);
  return {
    ...decide(readings, input.idleSeconds),
    readings,
    ms: Math.round(performance.now() - started),
  };
}

// Pure: the answer from the readings.
export function decide(
  readings: readonly Reading[],
  idleLimit: number,
): Omit<Presence, "readings" | "ms"> {
  const desktopIdle = readings.filter((r) => r.idleSeconds !== undefined && r.probe !== "tmux");
  // tmux only sees keys typed into it: it speaks for idleness when no desktop probe can.
  const idle =
    desktopIdle.length > 0 ? desktopIdle : readings.filter((r) => r.idleSeconds !== undefined);
  const idleSeconds =
    idle.length > 0 ? Math.max(...idle.map((r) => r.idleSeconds ?? 0)) : undefined;
  const withIdle = idleSeconds === undefined ? {} : { idleSeconds };
  const idled = idle.find((r) => (r.idleSeconds ?? 0) >= idleLimit);
  if (idled) {
    const detail = `idle ${String(idled.idleSeconds)} s (away after ${String(idleLimit)} s)`;
    return { state: "away", probe: idled.probe, detail, ...withIdle };
  }
  const unfocused = readings.find((r) => r.focused === false);
  if (unfocused)
    return { state: "away", probe: unfocused.probe, detail: unfocused.detail, ...withIdle };
  const focused = readings.find((r) => r.focused === true);
  if (focused && idleSeconds !== undefined) {
    const detail = `${focused.detail}; idle ${String(idleSeconds)} s`;
    return { state: "present", probe: focused.probe, detail, ...withIdle };
  }
  const detail =
    readings.length === 0
      ? "no presence probe works on this system"
      : focused
        ? "the terminal has the focus but no probe tells the idle time"
        : "no probe can tell whether the terminal has the focus";
  return { state: "unknown", probe: "none", detail, ...withIdle };
}

// A desktop probe names the pid in front; it is the session's terminal when it is an ancestor of
// the agent (or, inside tmux, of a client attached to the session).
async function matchFocus(
  readings: Reading[],
  input: PresenceInput,
  platform: NodeJS.Platform,
  parents: ReadonlyMap<number, number> | undefined,
): Promise<Reading[]> {
  if (!readings.some((r) => r.activePid !== undefined)) return readings;
  const tmux = readings.find((r) => r.probe === "tmux");
  const starts = tmux?.clientPids ?? [input.pid];
  const parentOf: ParentOf = parents
    ? mapParents(parents)
    : platform === "linux"
      ? procParent
      : await psParents(input.env, input.signal);
  const known = await Promise.all(starts.map((pid) => parentOf(pid)));
  const anchors = await ancestorsOf(starts, parentOf);
  return readings.map((reading) => {
    if (reading.activePid === undefined) return reading;
    if (!known.some((parent) => parent !== undefined))
      return { ...reading, detail: `${reading.detail}; the session's processes are gone` };
    const focused = anchors.has(reading.activePid);
    const whose = focused ? "this session's terminal" : "not this session's terminal";
    return { ...reading, focused, detail: `${reading.detail} (${whose})` };
  });
}
