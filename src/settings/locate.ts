import { join, sep } from "node:path";
import { HookNotifyError } from "../errors.js";
import type { Client } from "../pipeline/hook-event.js";

export type Scope = "user" | "project" | "local";

/** How hooks sit in a file: under a "hooks" key (settings.json), or as the bare event map (Droid hooks.json). */
export type FileShape = "settings" | "bare";

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

// Maps client + scope to files; the only place that knows where each client keeps its hooks.
export function locateTarget(client: Client, scope: Scope, input: LocateInput): Target {
  return client === "droid" ? locateDroid(scope, input) : locateClaude(scope, input);
}

// Droid 0.215.0 reads ~/.factory/hooks.json and .factory/hooks.json (bare map); local did not fire.
function locateDroid(scope: Scope, { home, projectDir }: LocateInput): Target {
  if (scope === "local") {
    throw new HookNotifyError(
      "USAGE",
      'Droid does not run hooks from .factory/settings.local.json ("droid exec" ignored them). Use --scope project (shared) or --scope user.',
    );
  }
  const dir = join(scope === "user" ? home : projectDir, ".factory");
  const target: Target = {
    client: "droid",
    scope,
    file: join(dir, "hooks.json"),
    shape: "bare",
    legacyFile: join(dir, "settings.json"),
  };
  if (scope === "project") {
    target.wrapper = {
      path: join(dir, "hooks", "hook-notify.sh"),
      command: '"$FACTORY_PROJECT_DIR"/.factory/hooks/hook-notify.sh',
    };
  }
  return target;
}

// Claude Code: ~/.claude/settings.json (or $CLAUDE_CONFIG_DIR), .claude/settings(.local).json.
function locateClaude(scope: Scope, { home, projectDir, env }: LocateInput): Target {
  if (scope === "user") {
    const dir = env["CLAUDE_CONFIG_DIR"] ?? join(home, ".claude");
    return { client: "claude-code", scope, file: join(dir, "settings.json"), shape: "settings" };
  }
  const dir = join(projectDir, ".claude");
  const name = scope === "project" ? "settings.json" : "settings.local.json";
  const target: Target = { client: "claude-code", scope, file: join(dir, name), shape: "settings" };
  if (scope === "project") {
    target.wrapper = {
      path: join(dir, "hooks", "hook-notify.sh"),
      command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/hook-notify.sh',
    };
  }
  return target;
}

// Shows a path the way a person thinks of it: ~ for the home folder.
export function displayPath(file: string, home: string): string {
  return file === home || file.startsWith(home + sep) ? "~" + file.slice(home.length) : file;
}
