// X11: the pid of the active window (xdotool, or xprop and _NET_WM_PID) and the idle time
// (xprintidle). probe.ts matches the pid against the session's ancestors.
import type { Reading } from "./reading.js";
import { runProbeProgram, type ProbeRunOptions } from "./run-probe-program.js";

// xdotool answers in one call; without it, xprop needs two (root's active window, then its pid).
export async function probeX11Focus(options: ProbeRunOptions): Promise<Reading> {
  const xdotool = await runProbeProgram("xdotool", ["getactivewindow", "getwindowpid"], options);
  if (xdotool.ok) return pidReading("xdotool", xdotool.stdout.trim(), xdotool.ms);
  const root = await runProbeProgram("xprop", ["-root", "_NET_ACTIVE_WINDOW"], options);
  const window = /window id # (0x[0-9a-f]+)/i.exec(root.stdout)?.[1];
  const ms = xdotool.ms + root.ms;
  if (!root.ok || !window || /^0x0+$/.test(window)) {
    const why = root.ok ? "no active window" : (root.problem ?? "failed");
    return { probe: "xprop", detail: `xdotool: ${xdotool.problem ?? "failed"}; xprop: ${why}`, ms };
  }
  const pid = await runProbeProgram("xprop", ["-id", window, "_NET_WM_PID"], options);
  const value = /_NET_WM_PID\(CARDINAL\) = (\d+)/.exec(pid.stdout)?.[1] ?? "";
  return pidReading("xprop", value, ms + pid.ms);
}

function pidReading(probe: string, text: string, ms: number): Reading {
  const pid = Number(text);
  if (!/^\d+$/.test(text) || pid <= 0)
    return { probe, detail: `${probe}: the active window has no pid`, ms };
  return { probe, activePid: pid, detail: `active window belongs to pid ${text}`, ms };
}

// xprintidle prints milliseconds since the last input event.
export async function probeXprintidle(options: ProbeRunOptions): Promise<Reading> {
  const run = await runProbeProgram("xprintidle", [], options);
  return idleReading("xprintidle", run.ok ? run.stdout.trim() : "", 1000, run.problem, run.ms);
}

// Shared by the idle probes: a number in some unit, or why there is none.
export function idleReading(
  probe: string,
  text: string,
  perSecond: number,
  problem: string | undefined,
  ms: number,
): Reading {
  if (!/^\d+$/.test(text)) return { probe, detail: `${probe}: ${problem ?? "no idle time"}`, ms };
  const idleSeconds = Math.round(Number(text) / perSecond);
  return { probe, idleSeconds, detail: `idle ${String(idleSeconds)} s`, ms };
}
