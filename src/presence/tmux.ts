// tmux: is this session's pane the active one of the active window, shown by an attached client
// that has the focus (tmux tracks terminal focus with focus-events; a client counts as focused
// until its terminal reports otherwise), and how long since that client last saw a key?
import type { Reading } from "./reading.js";
import { runProbeProgram, type ProbeRunOptions } from "./run-probe-program.js";

const TAB = "\t";

// Undefined when the agent does not run inside tmux.
export async function probeTmux(
  options: ProbeRunOptions & { now: number },
): Promise<Reading | undefined> {
  const { TMUX: tmux, TMUX_PANE: pane } = options.env;
  if (!tmux || !pane) return undefined;
  const socket = tmux.split(",")[0] ?? "";
  const args = [
    ...(socket ? ["-S", socket] : []),
    "display-message",
    "-p",
    "-t",
    pane,
    ["#{pane_active}", "#{window_active}", "#{session_name}"].join(TAB),
    ";",
    "list-clients",
    "-F",
    ["#{client_pid}", "#{client_activity}", "#{client_flags}", "#{client_session}"].join(TAB),
  ];
  const run = await runProbeProgram("tmux", args, options);
  if (!run.ok) return { probe: "tmux", detail: `tmux: ${run.problem ?? "failed"}`, ms: run.ms };
  return { ...readTmux(run.stdout, pane, options.now), ms: run.ms };
}

// Pure: the two answers of the one tmux call.
export function readTmux(stdout: string, pane: string, now: number): Omit<Reading, "ms"> {
  const [first = "", ...clientLines] = stdout.split("\n").filter(Boolean);
  const [paneActive, windowActive, session = ""] = first.split(TAB);
  if (paneActive === undefined || windowActive === undefined) {
    return { probe: "tmux", detail: `tmux: pane ${pane} not found` };
  }
  const clients = clientLines
    .map((line) => line.split(TAB))
    .filter((fields) => fields.slice(3).join(TAB) === session)
    .map(([pid, activity, flags]) => ({
      pid: Number(pid),
      activity: Number(activity),
      focused: (flags ?? "").split(",").includes("focused"),
    }));
  const clientPids = clients.map((client) => client.pid).filter((pid) => pid > 0);
  const last = Math.max(...clients.map((client) => client.activity).filter(Number.isFinite));
  const idleSeconds = Number.isFinite(last)
    ? Math.max(0, Math.round(now / 1000 - last))
    : undefined;
  const base = { probe: "tmux", clientPids, idleSeconds };
  if (paneActive !== "1") return { ...base, focused: false, detail: `pane ${pane} is not active` };
  if (windowActive !== "1")
    return { ...base, focused: false, detail: `the window of pane ${pane} is not active` };
  if (clients.length === 0)
    return { ...base, focused: false, detail: "no client is attached to the session" };
  if (!clients.some((client) => client.focused))
    return { ...base, focused: false, detail: "no attached client has the focus" };
  return { ...base, focused: true, detail: `pane ${pane} is active in a focused client` };
}
