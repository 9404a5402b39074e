// What the hook hands the worker so that it can ask about the same session later: the agent's
// pids (with the agent's start time: a later terminal write checks it is still the same process)
// and the few variables that say which display and tmux pane it runs in. Cheap: on Linux no
// program is started (macOS asks one `ps` for the start time, only for a delayed delivery).
import { readFileSync } from "node:fs";
import type { Deps } from "../deps.js";
import { processStart } from "../process-start.js";

/** The variables the probes read (PATH too: the hook's PATH finds tmux, xdotool, …). */
export const PRESENCE_ENV_KEYS = [
  "PATH",
  "TMUX",
  "TMUX_PANE",
  "DISPLAY",
  "XAUTHORITY",
  "WAYLAND_DISPLAY",
  "XDG_SESSION_TYPE",
  "XDG_CURRENT_DESKTOP",
  "XDG_RUNTIME_DIR",
  "DBUS_SESSION_BUS_ADDRESS",
  "SWAYSOCK",
  "HYPRLAND_INSTANCE_SIGNATURE",
  "WSL_DISTRO_NAME",
  "WSL_INTEROP",
] as const;

const MAX_CHAIN = 32;

export function presenceGate(deps: Deps, idleSeconds: number, forced?: "away"): PresenceGate {
  const env: Record<string, string> = {};
  for (const key of PRESENCE_ENV_KEYS) {
    const value = deps.env[key];
    if (value !== undefined) env[key] = value;
  }
  const ppid = deps.ppid ?? 0;
  const pids = deps.platform === "linux" && !env.TMUX ? procChain(ppid) : [ppid];
  const started = processStart(ppid, deps.platform);
  return {
    idleSeconds,
    pids,
    env,
    ...(started === undefined ? {} : { started }),
    ...(forced ? { forced } : {}),
  };
}

// Linux: the agent's ancestors now, from /proc (a few small reads), in case the shell that ran
// the hook is gone by the time the worker asks.
function procChain(start: number): number[] {
  const chain: number[] = [];
  let pid = start;
  while (pid > 1 && chain.length < MAX_CHAIN) {
    chain.push(pid);
    try {
      const stat = readFileSync(`/proc/${String(pid)}/stat`, "utf8");
      pid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
      break;
    }
  }
  return chain;
}

/** What the worker needs to ask whether the person is there, as the hook saw it. */
export interface PresenceGate {
  idleSeconds: number;
  /** The agent's process and, where cheap to know, its ancestors (the terminal is one). */
  pids: number[];
  /** The hook's display and tmux variables (TMUX, DISPLAY, WAYLAND_DISPLAY, …); no secrets. */
  env: Record<string, string>;
  /** When the agent (pids[0]) started (process-start.ts): a later terminal write checks it. */
  started?: string;
  /** `test --away`: the answer is away without asking. */
  forced?: "away";
}
