// User-scope hooks run a launcher of hook-notify's own (hooks-templates/launcher.sh), written into
// the user's data folder, instead of node and the package by absolute path: at run time it finds
// a working node (the recorded one, then PATH, then the usual version managers' places) and the
// package, so a node upgrade or a short PATH does not silently break every hook.
import { join, sep } from "node:path";
import type { Client } from "../core/hook-event.js";
import type { Target } from "../core/install-target.js";
import { HookNotifyError } from "../errors.js";
import { quoteForShell } from "./hook-command.js";

/** What the launcher path depends on. */
export interface LauncherHome {
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
}

// One launcher per client, so uninstalling one client leaves the others' launcher in place:
// $XDG_DATA_HOME/hook-notify/launchers/<client>/hook-notify.sh (~/.local/share by default).
export function launcherPath(client: Client, where: Pick<LauncherHome, "home" | "env">): string {
  const data = where.env.XDG_DATA_HOME || join(where.home, ".local", "share");
  return join(data, "hook-notify", "launchers", client, "hook-notify.sh");
}

// The user scope's hooks run the launcher (a sh script: not on Windows, where they keep running
// node and the package by absolute path).
export function withLauncher(target: Target, where: LauncherHome): Target {
  if (target.scope !== "user" || target.wrapper !== undefined || where.platform === "win32") {
    return target;
  }
  const path = launcherPath(target.client, where);
  return { ...target, wrapper: { path, command: quoteForShell(path, where.platform) } };
}

// The template with the node and the script of this install recorded in it, literally: a
// function as the replacement, so `$'`, `$&` or `$$` in a path is not a replacement pattern.
export function renderLauncher(template: string, nodePath: string, scriptPath: string): string {
  const set = (name: string, value: string) => () => `${name}=${shellQuote(value)}`;
  return template
    .replace(/^node=''$/m, set("node", nodePath))
    .replace(/^script=''$/m, set("script", scriptPath));
}

// A run through npx installs from npm's cache, which npm cleans when it likes: hooks pointing
// there would all stop one day. Refused with the one command that works.
export function refuseNpxCache(scriptPath: string): void {
  if (!scriptPath.split(sep).includes("_npx") && !scriptPath.includes("/_npx/")) return;
  throw new HookNotifyError(
    "USAGE",
    `this hook-notify runs from npm's npx cache (${scriptPath}), which npm may clean at any time, and then every hook would stop. Install it for good, then install the hooks: npm i -g hook-notify && hook-notify install`,
  );
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
