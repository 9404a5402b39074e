// Which version of a client is installed: its package.json when its program is a link into an npm
// package (no process started), else `<program> --version` under a short bound. Never hangs.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join } from "node:path";
import type { ClientAdapter } from "../clients/adapter.js";

/** How long `<program> --version` may take before doctor gives up on it. */
export const VERSION_TIMEOUT_MS = 3000;

/** The installed version, or why it is not known. */
export type FoundVersion = { version: string; program: string } | { unknown: string };

// The client's version as its package or its program says it.
export function findClientVersion(
  adapter: Pick<ClientAdapter, "program">,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
): FoundVersion {
  const { command } = adapter.program;
  const program = findOnPath(command, env, platform);
  if (program === undefined) return { unknown: `${command} is not on PATH` };
  const fromPackage = packageVersion(program, adapter.program.package);
  if (fromPackage !== undefined) return { version: fromPackage, program };
  const run = spawnSync(program, ["--version"], {
    encoding: "utf8",
    timeout: VERSION_TIMEOUT_MS,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...env },
    windowsHide: true,
  });
  const version = /\d+\.\d+\.\d+(?:-[0-9A-Za-z.]*[0-9A-Za-z])?/.exec(
    `${run.stdout}\n${run.stderr}`,
  )?.[0];
  if (version !== undefined) return { version, program };
  const why = run.error?.message ?? `"${command} --version" printed no version`;
  return { unknown: why.includes("ETIMEDOUT") ? `"${command} --version" did not answer` : why };
}

// The first file named `command` in PATH's absolute folders (on Windows also with PATHEXT's
// endings). A relative entry (`node_modules/.bin`, `.`) names whatever folder doctor runs in: a
// cloned repository's program is not started.
export function findOnPath(
  command: string,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
): string | undefined {
  const path = env["PATH"] ?? env["Path"] ?? "";
  const endings =
    platform === "win32" ? ["", ...(env["PATHEXT"] ?? ".COM;.EXE;.BAT;.CMD").split(";")] : [""];
  for (const dir of path.split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    for (const ending of endings) {
      const file = join(dir, command + ending.toLowerCase());
      if (isFile(file)) return file;
    }
  }
  return undefined;
}

// The version in the package.json of `name` above the program's real path (at most 8 levels up).
function packageVersion(program: string, name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  let dir: string;
  try {
    dir = dirname(realpathSync(program));
  } catch {
    return undefined;
  }
  for (let depth = 0; depth < 8; depth += 1) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const found = readPackage(file);
      if (found?.name === name && typeof found.version === "string") return found.version;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

function readPackage(file: string): { name?: unknown; version?: unknown } | undefined {
  try {
    if (statSync(file).size > 1 << 20) return undefined;
    return JSON.parse(readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
  } catch {
    return undefined;
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

// -1, 0 or 1 as version a is older than, the same as or newer than b (numeric parts only).
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[.+-]/, 3).map((part) => Number.parseInt(part, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i += 1) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}
