import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { onTestFinished } from "vitest";
import { findPackageRoot } from "../../src/settings/load-template.js";
import type { Machine } from "../../src/settings/prepare.js";
import { runSettingsCommand, type SettingsArgs } from "../../src/settings/settings-command.js";

/** A file tree: path → text, or text plus a mode (0o444 for a read-only file). */
export type Tree = Record<string, string | { text: string; mode: number }>;

// A fresh temp folder holding `tree`, removed when the test ends.
export async function makeTree(tree: Tree = {}): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "hook-notify-settings-"));
  onTestFinished(() => rm(root, { recursive: true, force: true }));
  await writeTree(root, tree);
  return root;
}

export async function writeTree(root: string, tree: Tree): Promise<void> {
  for (const [path, entry] of Object.entries(tree)) {
    const file = join(root, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, typeof entry === "string" ? entry : entry.text);
    if (typeof entry !== "string") await chmod(file, entry.mode);
  }
}

// Every file under root as path → text, for whole-tree assertions.
export async function readTree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    out[relative(root, file)] = await readFile(file, "utf8");
  }
  return out;
}

export async function readMaybe(file: string): Promise<string | undefined> {
  return readFile(file, "utf8").catch(() => undefined);
}

export async function modeOf(file: string): Promise<number> {
  return (await stat(file)).mode & 0o777;
}

/** A temp HOME with a project folder inside it, and the Machine install sees there. */
export interface Sandbox {
  root: string;
  home: string;
  project: string;
  machine: Machine;
}

// HOME and project built from inline trees ("home/..." and "project/..." paths).
export async function makeSandbox(tree: Tree = {}): Promise<Sandbox> {
  const root = await makeTree({ "home/.keep": "", "project/.keep": "", ...tree });
  const home = join(root, "home");
  const project = join(root, "project");
  const machine: Machine = {
    home,
    projectDir: project,
    env: {},
    platform: "linux",
    nodePath: "/usr/local/bin/node",
    packageRoot: findPackageRoot(),
    scriptPath: "/opt/hook notify/bin/hook-notify.js",
  };
  return { root, home, project, machine };
}

/** `install` / `uninstall` as a person runs them: Claude Code, user scope, no prompt. */
export const SETTINGS_ARGS: SettingsArgs = {
  client: "claude-code",
  scope: "user",
  events: undefined,
  timeout: undefined,
  projectDir: undefined,
  dryRun: false,
  yes: true,
  fixJsonc: false,
};

/** `install` / `uninstall` through runSettingsCommand with SETTINGS_ARGS and `args` over them:
 * the exit code and what it printed. */
export async function runSettings(
  box: Sandbox,
  action: "install" | "uninstall",
  args: Partial<SettingsArgs>,
): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runSettingsCommand(
    action,
    { ...SETTINGS_ARGS, ...args },
    { machine: box.machine, out: (text) => out.push(text), err: (line) => err.push(line) },
  );
  return { code, out: out.join(""), err: err.join("\n") };
}
