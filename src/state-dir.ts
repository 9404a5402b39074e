import { join } from "node:path";
import type { Deps } from "./deps.js";

// Where the log, the outbox and the machine key live: $XDG_STATE_HOME/hook-notify or
// ~/.local/state/hook-notify (%LOCALAPPDATA% on Windows). Here, below config/, so that a sink can
// find the machine key (machine-key.ts).
export function stateDir(deps: Pick<Deps, "env" | "homedir" | "platform">): string {
  if (deps.platform === "win32" && deps.env.LOCALAPPDATA) {
    return join(deps.env.LOCALAPPDATA, "hook-notify");
  }
  const base = deps.env.XDG_STATE_HOME || join(deps.homedir, ".local", "state");
  return join(base, "hook-notify");
}
