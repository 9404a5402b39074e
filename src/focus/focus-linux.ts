// Linux and the BSDs: bringing the agent's place back when its banner is clicked. The tmux pane
// (select-window, select-pane), then the terminal window: by WINDOWID on X11 outside tmux, else
// the window of the nearest ancestor process (of the tmux client, or of the agent) through
// xdotool on X11, swaymsg on sway, hyprctl on Hyprland. GNOME and KDE on Wayland let no other
// program raise a window. Every argument is a checked pane id, socket path or number.
import { ancestorsOf, type ParentOf } from "../presence/ancestors.js";
import type { FocusPlace } from "./place.js";
import { withDeadline } from "../abort.js";

/** Runs one program (argv, no shell, bounded) and says how it went. */
export type RunFocusProgram = (
  file: string,
  args: readonly string[],
) => Promise<{ ok: boolean; stdout: string; problem?: string | undefined }>;

const TAB = "\t";

// At the click: selects the pane and raises the window; what was done, one item per step.
export async function focusLinux(
  place: FocusPlace,
  run: RunFocusProgram,
  parentOf: ParentOf,
): Promise<string[]> {
  const done: string[] = [];
  let starts = place.pid === undefined ? [] : [place.pid];
  if (place.tmux) {
    const { socket, pane } = place.tmux;
    const tmux = ["-S", socket];
    const select = await run("tmux", [
      ...tmux,
      "select-window",
      "-t",
      pane,
      ";",
      "select-pane",
      "-t",
      pane,
    ]);
    done.push(select.ok ? `tmux pane ${pane} selected` : `tmux: ${select.problem ?? "failed"}`);
    // The terminal that shows the pane is an ancestor of a client attached to its session.
    const clients = await run("tmux", [
      ...tmux,
      "display-message",
      "-p",
      "-t",
      pane,
      "#{session_name}",
      ";",
      "list-clients",
      "-F",
      `#{client_pid}${TAB}#{client_session}`,
    ]);
    if (clients.ok) starts = clientPidsOf(clients.stdout);
  }
  const window = await raiseWindow(place, starts, run, parentOf);
  if (window) done.push(window);
  return done;
}

// Pure: the pids of the clients attached to the pane's session (first line: its name).
export function clientPidsOf(stdout: string): number[] {
  const [session, ...lines] = stdout.split("\n").filter(Boolean);
  return lines
    .map((line) => line.split(TAB))
    .filter(([, name]) => name === session)
    .map(([pid]) => Number(pid))
    .filter((pid) => Number.isInteger(pid) && pid > 1);
}

async function raiseWindow(
  place: FocusPlace,
  starts: readonly number[],
  run: RunFocusProgram,
  parentOf: ParentOf,
): Promise<string | undefined> {
  if (place.display === "x11" && place.x11Window) {
    const id = place.x11Window;
    const xdotool = await run("xdotool", ["windowactivate", id]);
    if (xdotool.ok) return `X11 window ${id} raised`;
    const wmctrl = await run("wmctrl", ["-i", "-a", `0x${Number(id).toString(16)}`]);
    return wmctrl.ok ? `X11 window ${id} raised (wmctrl)` : `X11 window ${id}: not raised`;
  }
  if (place.display !== "x11" && place.display !== "sway" && place.display !== "hyprland")
    return undefined;
  for (const pid of await ancestorsOf(starts, parentOf)) {
    const raised = await raiseByPid(place.display, pid, run);
    if (raised) return raised;
  }
  return starts.length > 0 ? "no window of the terminal's processes was found" : undefined;
}

async function raiseByPid(
  display: "x11" | "sway" | "hyprland",
  pid: number,
  run: RunFocusProgram,
): Promise<string | undefined> {
  const n = String(pid);
  if (display === "sway") {
    const sway = await run("swaymsg", [`[pid=${n}] focus`]);
    return sway.ok ? `sway window of pid ${n} focused` : undefined;
  }
  if (display === "hyprland") {
    const hypr = await run("hyprctl", ["dispatch", "focuswindow", `pid:${n}`]);
    return hypr.ok && /^ok/i.test(hypr.stdout.trim())
      ? `Hyprland window of pid ${n} focused`
      : undefined;
  }
  const search = await run("xdotool", ["search", "--pid", n]);
  const window = search.ok
    ? search.stdout.split("\n").find((line) => /^\d+$/.test(line))
    : undefined;
  if (!window) return undefined;
  const raised = await run("xdotool", ["windowactivate", window]);
  return raised.ok ? `X11 window ${window} of pid ${n} raised` : undefined;
}

// The click's focusing with real programs (5 s each at most) in the hook's environment.
export async function focusClicked(
  place: FocusPlace,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string[]> {
  const [{ runProbeProgram }, { procParent }] = await Promise.all([
    import("../presence/run-probe-program.js"),
    import("../presence/ancestors.js"),
  ]);
  const run: RunFocusProgram = (file, args) =>
    withDeadline(10_000, (signal) => runProbeProgram(file, args, { env, signal, timeoutMs: 5000 }));
  return focusLinux(place, run, procParent);
}
