import { joinPath } from "../path-join.js";
import type { Deps } from "../deps.js";
import { stateDir } from "../state-dir.js";

export { stateDir };

type PathDeps = Pick<Deps, "env" | "homedir" | "platform">;

// The user's config file: --config, then HOOK_NOTIFY_CONFIG, then XDG / AppData.
export function userConfigPath(deps: PathDeps, override?: string): string {
  if (override) return override;
  const fromEnv = deps.env.HOOK_NOTIFY_CONFIG;
  if (fromEnv) return fromEnv;
  return joinPath(configDir(deps), "config.json");
}

// Where the user config lives: $XDG_CONFIG_HOME/hook-notify, ~/.config/hook-notify, %APPDATA%.
export function configDir(deps: PathDeps): string {
  if (deps.platform === "win32" && deps.env.APPDATA)
    return joinPath(deps.env.APPDATA, "hook-notify");
  const base = deps.env.XDG_CONFIG_HOME || joinPath(deps.homedir, ".config");
  return joinPath(base, "hook-notify");
}

// The NDJSON run log, one line per hook run.
export function logPath(deps: PathDeps): string {
  return joinPath(stateDir(deps), "log.ndjson");
}

/** A project's own config file, merged over the user's (narrowing only; see load-config). */
export const PROJECT_CONFIG_NAME = ".hook-notify.json";
