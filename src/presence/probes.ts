// Which probes fit this system, and running them concurrently.
import { probeMutterIdle } from "./gnome.js";
import { probeIoreg, probeLsappinfo } from "./macos.js";
import type { Reading } from "./reading.js";
import { probeTmux } from "./tmux.js";
import { probeHyprland, probeSway } from "./wayland.js";
import { probePowerShell } from "./windows.js";
import { probeX11Focus, probeXprintidle } from "./x11.js";

export type ProbeName =
  | "tmux"
  | "xdotool"
  | "xprintidle"
  | "gdbus"
  | "swaymsg"
  | "hyprctl"
  | "lsappinfo"
  | "ioreg"
  | "powershell";

type Env = Readonly<Record<string, string | undefined>>;

// Pure: the probes for a platform and environment (tmux first: it names the terminal clients).
export function planProbes(platform: NodeJS.Platform, env: Env): ProbeName[] {
  const names: ProbeName[] = env.TMUX && env.TMUX_PANE ? ["tmux"] : [];
  if (platform === "darwin") return [...names, "lsappinfo", "ioreg"];
  if (platform === "win32" || isWsl(platform, env)) return [...names, "powershell"];
  if (platform !== "linux" && platform !== "freebsd" && platform !== "openbsd") return names;
  const gnome = /gnome/i.test(env.XDG_CURRENT_DESKTOP ?? "");
  const wayland = Boolean(env.WAYLAND_DISPLAY) || env.XDG_SESSION_TYPE === "wayland";
  if (wayland) {
    if (env.SWAYSOCK) names.push("swaymsg");
    if (env.HYPRLAND_INSTANCE_SIGNATURE) names.push("hyprctl");
  } else if (env.DISPLAY) {
    names.push("xdotool", "xprintidle");
  }
  if (gnome) names.push("gdbus");
  return names;
}

export function isWsl(platform: NodeJS.Platform, env: Env): boolean {
  return platform === "linux" && Boolean(env.WSL_DISTRO_NAME ?? env.WSL_INTEROP);
}

export interface ProbeContext {
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  platform: NodeJS.Platform;
  now: number;
  timeoutMs?: number | undefined;
}

// All planned probes at once; the Windows process table comes back for the focus match.
export async function runProbes(
  names: readonly ProbeName[],
  context: ProbeContext,
): Promise<{ readings: Reading[]; parents?: Map<number, number> }> {
  let parents: Map<number, number> | undefined;
  const options = { env: context.env, signal: context.signal, timeoutMs: context.timeoutMs };
  const run = async (name: ProbeName): Promise<Reading | undefined> => {
    switch (name) {
      case "tmux":
        return probeTmux({ ...options, now: context.now });
      case "xdotool":
        return probeX11Focus(options);
      case "xprintidle":
        return probeXprintidle(options);
      case "gdbus":
        return probeMutterIdle(options);
      case "swaymsg":
        return probeSway(options);
      case "hyprctl":
        return probeHyprland(options);
      case "lsappinfo":
        return probeLsappinfo(options);
      case "ioreg":
        return probeIoreg(options);
      case "powershell": {
        const { parents: table, ...reading } = await probePowerShell({
          ...options,
          wsl: isWsl(context.platform, context.env),
        });
        if (context.platform === "win32" && table && table.size > 0) parents = table;
        return reading;
      }
    }
  };
  const readings = (await Promise.all(names.map(run))).filter((r): r is Reading => r !== undefined);
  return parents ? { readings, parents } : { readings };
}
