import { sep } from "node:path";
import { adapterFor } from "../clients/index.js";
import { HookNotifyError } from "../errors.js";
import type { Client } from "../pipeline/hook-event.js";

export type Scope = "user" | "project" | "local";

/** How hooks sit in a file: under a "hooks" key (settings.json), as the bare event map (Droid
 * hooks.json), as Copilot CLI's flat entries in a file of hook-notify's own, or as the entries of
 * OpenCode's plugin file of hook-notify's own. */
export type FileShape = "settings" | "bare" | "copilot" | "opencode";

/** Where one client's hooks go for one scope, and what else install must look at. */
export interface Target {
  client: Client;
  scope: Scope;
  file: string;
  shape: FileShape;
  /** Droid's older settings.json "hooks": our entries there are moved, not duplicated. */
  legacyFile?: string;
  /** Project scope: the wrapper script the command runs, and the command's prefix. */
  wrapper?: { path: string; command: string };
}

/** Everything locate needs to know about the machine, passed in as data. */
export interface LocateInput {
  home: string;
  projectDir: string;
  env: Readonly<Record<string, string | undefined>>;
}

// Maps client + scope to files; each client's adapter (src/clients/) knows where it keeps hooks.
export function locateTarget(client: Client, scope: Scope, input: LocateInput): Target {
  const adapter = adapterFor(client);
  if (!adapter.scopes.includes(scope)) {
    if (client === "droid") return adapter.locate(scope, input); // says why local never fires
    throw new HookNotifyError(
      "USAGE",
      `${adapter.name} has no ${scope} scope; use --scope ${adapter.scopes.join(" or ")}.`,
    );
  }
  return adapter.locate(scope, input);
}

// Shows a path the way a person thinks of it: ~ for the home folder.
export function displayPath(file: string, home: string): string {
  return file === home || file.startsWith(home + sep) ? "~" + file.slice(home.length) : file;
}
