// Linux and the BSDs: bringing the agent's place back when its banner is clicked. The zellij pane
// (focus-pane-id), the tmux pane (select-window, select-pane), the terminal's own tab or pane
// (kitty's window by remote control, WezTerm's pane), then the terminal window: by WINDOWID on X11 outside tmux, else
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
  if (place.zellij) {
    const { session, pane } = place.zellij;
    const args = ["--session", session, "action", "focus-pane-id", `terminal_${pane}`];
    const zellij = await run("zellij", args);
    done.push(zellij.ok ? `zellij pane ${pane} focused` : `zellij: ${zellij.problem ?? "failed"}`);
  }
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
  done.push(...(await focusTerminalPane(place, run)));
  const window = await raiseWindow(place, starts, run, parentOf);
  if (window) done.push(window);
  return done;
}

// The terminal's own tab or pane: kitty over its remote-control socket (which also raises its OS
// window), WezTerm through its mux (`wezterm cli` finds the GUI by WEZTERM_UNIX_SOCKET).
async function focusTerminalPane(place: FocusPlace, run: RunFocusProgram): Promise<string[]> {
  const done: string[] = [];
  if (place.kitty) {
    const { window, to } = place.kitty;
    const args = ["@", "--to", to, "focus-window", "--match", `id:${window}`];
    const kitty = await run("kitty", args);
    done.push(kitty.ok ? `kitty window ${window} focused` : `kitty: ${kitty.problem ?? "failed"}`);
  }
  if (place.wezterm) {
    const { pane } = place.wezterm;
    const wezterm = await run("wezterm", ["cli", "activate-pane", "--pane-id", pane]);
    done.push(
      wezterm.ok ? `WezTerm pane ${pane} activated` : `wezterm: ${wezterm.problem ?? "failed"}`,
    );
  }
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
