// What `hook-notify watch` has seen, in $XDG_STATE_HOME/hook-notify/watch/state.json, so that a
// restart (or the next cron run of --once) announces nothing twice. Written atomically, 0600.
import { mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import { stateDir } from "../../config/paths.js";
import type { Deps } from "../../deps.js";
import { fnv1a64 } from "../../fnv1a.js";

/** A session's last seen status, update time, message count and completion time (0: none). */
export interface SeenSession {
  status?: string | undefined;
  updatedAt?: number | undefined;
  messageCount?: number | undefined;
  completedAt?: number | undefined;
  /** The cursor of the list page it was last seen on ("" the first page), and that list's scope. */
  page?: string | undefined;
  scope?: string | undefined;
  /** When a poll last saw it on a page or by its GET (local clock). */
  seenAt?: number | undefined;
}

/** Where the session list is read from next, per list scope ("" or a computer id). */
export interface SessionCursors {
  /** The cursor of the last page read at the list's end (oldest-first lists). */
  tail?: string | undefined;
  /** The rolling sweep through the rest of the list; undefined = from the start. */
  sweep?: string | undefined;
  /** When the sweep's current round started: a session not seen since, when it ends, is gone. */
  sweepFrom?: number | undefined;
  /** 5xx answers in a row to a saved cursor; the second drops it. */
  strikes?: number | undefined;
}

/** A computer's last seen health. */
export interface SeenComputer {
  /** In error or with a failed provisioning step, and not yet back to active. */
  troubled: boolean;
  failedSteps: string[];
}

export interface WatchState {
  version: 1;
  /** Undefined until the first successful poll of each kind (the baseline announces nothing). */
  sessions?: Record<string, SeenSession> | undefined;
  /** When the last session scan started (local clock): a session created after it is new. */
  sessionsPolledAt?: number | undefined;
  sessionCursors?: Record<string, SessionCursors> | undefined;
  computers?: Record<string, SeenComputer> | undefined;
  controlsRevision?: number | undefined;
  /** The last UTC day whose digest went out (YYYY-MM-DD). */
  digestDate?: string | undefined;
  /** The organisation (meta.org_id) and the UTC day it was last asked for (org.ts). */
  org?: { id?: string | undefined; checked: string } | undefined;
  /** The last UTC day checked against service.alerts (announced or not). */
  alertsDate?: string | undefined;
}

// The folder of the watch state: $XDG_STATE_HOME/hook-notify/watch.
export function watchDir(deps: Pick<Deps, "env" | "homedir" | "platform">): string {
  return join(stateDir(deps), "watch");
}

// The state file of one scope (the service's base URL and the computer filter): another service
// or filter has its own file, and so its own baseline.
export function stateFile(dir: string, scope: string): string {
  return join(dir, `state-${fnv1a64(scope)}.json`);
}

// The saved state, or a fresh one (a missing or unreadable file starts a new baseline).
export async function readWatchState(dir: string, scope: string): Promise<WatchState> {
  try {
    const json = JSON.parse(await readFile(stateFile(dir, scope), "utf8")) as unknown;
    const ok =
      typeof json === "object" && json !== null && (json as { version?: unknown }).version === 1;
    return ok ? (json as WatchState) : { version: 1 };
  } catch {
    return { version: 1 };
  }
}

// Temp file, fsync, rename: a crash leaves the old state or the new one, never half of one.
export async function writeWatchState(
  dir: string,
  scope: string,
  state: WatchState,
): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = stateFile(dir, scope);
  const temp = `${file}.${String(process.pid)}.tmp`;
  const handle = await open(temp, "w", 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(state)}\n`);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
