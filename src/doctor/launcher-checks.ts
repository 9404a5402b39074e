// The user-scope launcher (hooks-templates/launcher.sh) finds node and hook-notify when a hook
// runs; doctor asks it what it would run today (HOOK_NOTIFY_LAUNCHER=check), so a node upgrade or
// an uninstalled package shows up here, not as silence.
import { spawnSync } from "node:child_process";
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { fail, ok, warn, type CheckResult } from "../check-result.js";

const LAUNCHER_LINE = "hook-notify wrapper: the launcher";
/** The marker sits in the first lines: this much of a file is all doctor reads. */
const PREFIX_BYTES = 4096;
// Kernel and device trees: /proc/self/cwd/… points into whatever folder doctor runs in.
const SYSTEM_TREE = /^\/(proc|dev|sys)(\/|$)/;

// True for a file install wrote as the launcher (its marker in the first lines). A settings file
// may come with a cloned repository: only a regular file (lstat: not a link, device or FIFO) of
// the running user's, outside /proc, /dev and /sys, is looked at, and only its first 4 KiB.
export function isLauncher(path: string): boolean {
  if (SYSTEM_TREE.test(path)) return false;
  const flags = constants as Partial<typeof constants>;
  let fd: number | undefined;
  try {
    const info = lstatSync(path);
    if (!info.isFile() || !isOwn(info.uid)) return false;
    fd = openSync(path, constants.O_RDONLY | (flags.O_NOFOLLOW ?? 0) | (flags.O_NONBLOCK ?? 0));
    const opened = fstatSync(fd);
    if (!opened.isFile() || opened.ino !== info.ino || opened.dev !== info.dev) return false;
    const prefix = Buffer.alloc(PREFIX_BYTES);
    const read = readSync(fd, prefix, 0, PREFIX_BYTES, 0);
    return prefix
      .subarray(0, read)
      .toString("utf8")
      .split("\n", 4)
      .some((line) => line.includes(LAUNCHER_LINE));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function isOwn(uid: number): boolean {
  const own = process.getuid?.();
  return own === undefined || uid === own;
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

// A launcher that is not the one install writes for this user: not run, and said so.
export function foreignLauncher(
  check: string,
  shownPath: string,
  client: string,
  scope: string,
): CheckResult {
  return warn(
    check,
    `${shownPath}: a launcher hook-notify did not write for you here; doctor does not run it`,
    `If this file is yours, run: hook-notify install --client ${client} --scope ${scope}`,
  );
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
