import { joinPath } from "./path-join.js";
import type { Deps } from "./deps.js";

// Where the log, the outbox and the machine key live: $XDG_STATE_HOME/hook-notify or
// ~/.local/state/hook-notify (%LOCALAPPDATA% on Windows). Here, below config/, so that a sink can
// find the machine key (machine-key.ts).
export function stateDir(deps: Pick<Deps, "env" | "homedir" | "platform">): string {
  if (deps.platform === "win32" && deps.env.LOCALAPPDATA) {
    return joinPath(deps.env.LOCALAPPDATA, "hook-notify");
  }
  const base = deps.env.XDG_STATE_HOME || joinPath(deps.homedir, ".local", "state");
  return joinPath(base, "hook-notify");
}
