// The next-step hints ("then run hook-notify test") must name a command that works where they are
// read: after `node bin/hook-notify.cjs install` in a checkout, or with another hook-notify on PATH,
// a bare "hook-notify" runs nothing or something else.
import { accessSync, constants, realpathSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join, relative } from "node:path";

/** Where this run of hook-notify is and what the shell would find. */
export interface SelfInput {
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  /** bin/hook-notify.cjs of this run. */
  scriptPath: string;
  cwd: string;
}

// "hook-notify" when that name on PATH is this very script; otherwise node and the script,
// relative to the current folder when it is inside it (node bin/hook-notify.cjs).
export function selfCommand(input: SelfInput): string {
  if (input.platform === "win32") return "hook-notify";
  const onPath = (input.env.PATH ?? "")
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, "hook-notify"))
    .find(isExecutable);
  const script = real(input.scriptPath);
  if (onPath !== undefined && real(onPath) === script) return "hook-notify";
  const inside = relative(input.cwd, script);
  const isInside = inside !== "" && !inside.startsWith("..") && !isAbsolute(inside);
  const shown = isInside && dirname(input.cwd) !== input.cwd ? inside : script;
  return `node ${/^[\w./@+-]+$/.test(shown) ? shown : `'${shown.replaceAll("'", `'\\''`)}'`}`;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
