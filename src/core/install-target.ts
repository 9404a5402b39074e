// Where a client keeps its hooks: the install's domain, shared by clients/ and settings/.
import type { Client } from "./hook-event.js";

export type Scope = "user" | "project" | "local";

/** How hooks sit in a file (settings/shapes.ts): under a "hooks" key (settings.json), as the bare
 * event map (Droid's hooks.json), as flat entries in a JSON file of hook-notify's own (Copilot
 * CLI's), as flat entries under "hooks" in a file the client shares with other tools (Crush's
 * crush.json, Cursor's hooks.json), or as the entries of a plugin file of hook-notify's own
 * (OpenCode's). */
export type FileShape = "settings" | "bare" | "flat" | "entries" | "plugin" | "pi-extension";

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
