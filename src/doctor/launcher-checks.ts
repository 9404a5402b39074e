// The user-scope launcher (hooks-templates/launcher.sh) finds node and hook-notify when a hook
// runs; doctor asks it what it would run today (HOOK_NOTIFY_LAUNCHER=check), so a node upgrade or
// an uninstalled package shows up here, not as silence.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fail, ok, warn, type CheckResult } from "../check-result.js";

const LAUNCHER_LINE = "hook-notify wrapper: the launcher";

// True for a file install wrote as the launcher (its marker in the first lines).
export function isLauncher(path: string): boolean {
  try {
    return readFileSync(path, "utf8")
      .split("\n", 4)
      .some((line) => line.includes(LAUNCHER_LINE));
  } catch {
    return false;
  }
}

// Runs the launcher in check mode: ok with the node and script it found, or its one-line reason.
export function checkLauncher(
  check: string,
  path: string,
  shownPath: string,
  env: Readonly<Record<string, string | undefined>>,
): CheckResult {
  const run = spawnSync(path, [], {
    env: { ...env, HOOK_NOTIFY_LAUNCHER: "check" },
    encoding: "utf8",
    timeout: 10_000,
    stdio: ["ignore", "ignore", "pipe"],
  });
  const said = (run.stderr || "").trim();
  const found = Object.fromEntries(
    said.split("\n").map((line) => [line.split(" ", 1)[0], line.slice(line.indexOf(" ") + 1)]),
  ) as Record<string, string | undefined>;
  const script = found["script"];
  if (run.error === undefined && found["node"] !== undefined && script !== undefined) {
    if (isOlderScript(script)) return olderScript(check, shownPath, script);
    return ok(check, `${shownPath} runs ${script} with ${found["node"]}`);
  }
  const reason = said.split("\n")[0]?.replace(/^hook-notify: /, "") || String(run.error?.message);
  return fail(check, `${shownPath}: ${reason}`, "npm i -g hook-notify, then: hook-notify install");
}

// An entry that still runs node and the package by absolute path (an install before the
// launcher): it works until node moves.
export function oldStyleEntry(check: string, shown: string, client: string): CheckResult {
  return warn(
    check,
    `${shown}: the hooks run node by its absolute path, so a node upgrade (nvm, fnm, Homebrew) breaks them`,
    `Run hook-notify install --client ${client} again: its hooks then run a launcher that finds node`,
  );
}

// bin/hook-notify.js beside a bin/hook-notify.cjs: a hook entry (or launcher) written by an earlier
// version, which still works through the .js file but costs every hook run a second file.
export function isOlderScript(path: string): boolean {
  return basename(path) === "hook-notify.js" && existsSync(join(dirname(path), "hook-notify.cjs"));
}

export function olderScript(check: string, shown: string, script: string): CheckResult {
  return warn(
    check,
    `${shown}: the hooks run ${script}, which an earlier version installed; it works, and costs every hook run about 1 ms more than bin/hook-notify.cjs`,
    "Run hook-notify install again (with the same --client and --scope): it names bin/hook-notify.cjs",
  );
}
