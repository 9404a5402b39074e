// Where a client keeps its hooks: the install's domain, shared by clients/ and settings/.
import type { Client } from "./hook-event.js";

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

/** Where an adapter keeps one scope's hooks: the Target without what the adapter says once. */
export type Place = Omit<Target, "client" | "shape">;

/** Everything locate needs to know about the machine, passed in as data. */
export interface LocateInput {
  home: string;
  projectDir: string;
  env: Readonly<Record<string, string | undefined>>;
}
