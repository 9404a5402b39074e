// The one reply listener per bot (dist/worker.cjs reply, reply-main.ts): a detached process that holds a
// lock file naming its pid in the bot's inbox. offer.ts starts one when none runs; the listener
// takes the lock first and lets go of it when no ticket is live.
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Inbox } from "../approve/telegram-inbox.js";
import type { Deps } from "../deps.js";
import { processAlive } from "../process-alive.js";

// The listener's lock file names its pid; a pid that is gone leaves a lock that counts for nobody.
export function listenerRuns(inbox: Inbox): boolean {
  try {
    const pid = Number(readFileSync(join(inbox.dir, "reply-listen.lock"), "utf8").trim());
    return Number.isInteger(pid) && pid > 1 && processAlive(pid);
  } catch {
    return false;
  }
}

// Takes the listener's lock for this process (a stale one is replaced). False when another has it.
export function takeListenerLock(inbox: Inbox): boolean {
  const path = join(inbox.dir, "reply-listen.lock");
  if (listenerRuns(inbox)) return false;
  rmSync(path, { force: true });
  try {
    const fd = openSync(path, "wx", 0o600);
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch {
    return false;
  }
}

// Lets go of the lock, if this process holds it (the listener, when no ticket is live).
export function releaseListenerLock(inbox: Inbox): void {
  const path = join(inbox.dir, "reply-listen.lock");
  try {
    if (readFileSync(path, "utf8").trim() === String(process.pid)) rmSync(path, { force: true });
  } catch {
    // Gone already.
  }
}

// The listener is dist/worker.cjs started with the argument "reply" (worker/process-entry.ts),
// beside the running worker (or CLI), detached, stdio ignored, with the worker's
// environment and the config file the message was sent by.
export function startListener(deps: Deps, configPath: string | undefined): void {
  const bin = process.argv[1];
  const file = bin === undefined ? undefined : join(dirname(bin), "worker.cjs");
  if (file === undefined || !existsSync(file)) return;
  const { spawn } = process.getBuiltinModule("node:child_process");
  const env = { ...deps.env, ...(configPath ? { HOOK_NOTIFY_CONFIG: configPath } : {}) };
  const child = spawn(process.execPath, [file, "reply"], {
    detached: true,
    stdio: "ignore",
    env,
    windowsHide: true,
  });
  child.on("error", () => undefined);
  child.unref();
}
