// Sway and Hyprland: the pid of the focused window from their IPC. Neither reports idle time.
import type { Reading } from "./reading.js";
import { runProbeProgram, type ProbeRunOptions } from "./run-probe-program.js";

interface TreeNode {
  focused?: boolean;
  pid?: number;
  nodes?: TreeNode[];
  floating_nodes?: TreeNode[];
}

export async function probeSway(options: ProbeRunOptions): Promise<Reading> {
  const run = await runProbeProgram("swaymsg", ["-t", "get_tree", "-r"], options);
  if (!run.ok)
    return { probe: "swaymsg", detail: `swaymsg: ${run.problem ?? "failed"}`, ms: run.ms };
  const focused = findFocused(parse(run.stdout) as TreeNode | undefined);
  return pidReading("swaymsg", focused?.pid, run.ms);
}

export async function probeHyprland(options: ProbeRunOptions): Promise<Reading> {
  const run = await runProbeProgram("hyprctl", ["activewindow", "-j"], options);
  if (!run.ok)
    return { probe: "hyprctl", detail: `hyprctl: ${run.problem ?? "failed"}`, ms: run.ms };
  const window = parse(run.stdout) as { pid?: number } | undefined;
  return pidReading("hyprctl", window?.pid, run.ms);
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function findFocused(node: TreeNode | undefined): TreeNode | undefined {
  if (!node || typeof node !== "object") return undefined;
  if (node.focused === true) return node;
  for (const child of [...(node.nodes ?? []), ...(node.floating_nodes ?? [])]) {
    const found = findFocused(child);
    if (found) return found;
  }
  return undefined;
}

function pidReading(probe: string, pid: unknown, ms: number): Reading {
  if (typeof pid !== "number" || !Number.isInteger(pid) || pid <= 0)
    return { probe, detail: `${probe}: no focused window with a pid`, ms };
  return { probe, activePid: pid, detail: `focused window belongs to pid ${String(pid)}`, ms };
}
