import { statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import { HookNotifyError } from "../errors.js";

type Env = Readonly<Record<string, string | undefined>>;

// Finds an executable on PATH without a shell.
export function findProgram(name: string, env: Env, platform: NodeJS.Platform): string | undefined {
  if (isAbsolute(name)) return isExecutable(name, platform) ? name : undefined;
  const dirs = (env.PATH ?? env.Path ?? "").split(delimiter).filter(Boolean);
  const suffixes =
    platform === "win32" ? ["", ...(env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";")] : [""];
  for (const dir of dirs) {
    for (const suffix of suffixes) {
      const candidate = join(dir, name + suffix);
      if (isExecutable(candidate, platform)) return candidate;
    }
  }
  return undefined;
}

// The first of several programs that is on PATH, with its name.
export function findFirstProgram(
  names: readonly string[],
  env: Env,
  platform: NodeJS.Platform,
): { name: string; path: string } | undefined {
  for (const name of names) {
    const path = findProgram(name, env, platform);
    if (path) return { name, path };
  }
  return undefined;
}

// A regular file with an execute bit (statSync without throwing: this runs on the hook path).
function isExecutable(path: string, platform: NodeJS.Platform): boolean {
  const stats = statSync(path, { throwIfNoEntry: false });
  return !!stats && stats.isFile() && (platform === "win32" || (stats.mode & 0o111) !== 0);
}

/** What a sink that plays through a local program says when none is found: the configured one, or
 *  the platform's own (macOS, Windows), or the list tried elsewhere, then how to install one. */
export function programUnavailable(
  sinkName: string,
  platform: NodeJS.Platform,
  what: {
    configured: string | undefined;
    setting: string;
    mac: string;
    tried: string;
    install: string;
  },
): HookNotifyError {
  const hint = what.configured
    ? `"${what.configured}" is not on PATH`
    : platform === "darwin"
      ? `${what.mac} not found (it is in /usr/bin on every Mac; is PATH cut down?)`
      : platform === "win32"
        ? "powershell.exe not found (it ships with Windows)"
        : `no ${what.tried}`;
  return new HookNotifyError(
    "SINK_UNAVAILABLE",
    `${sinkName}: ${hint}. Install one (Debian/Ubuntu: ${what.install}) or set "${what.setting}".`,
    { sink: sinkName, retryable: false },
  );
}
