// One poll of `hook-notify watch`: read what was seen, ask the service what is now, announce the
// differences, save. Each part (sessions, computers, controls, digest) stands alone: one failing
// (a 403 on analytics, a 500) keeps its old state and does not stop the others.
import { deadline } from "../../abort.js";
import type { LoadedConfig } from "../../config/load-config.js";
import type { Deps } from "../../deps.js";
import { toHookNotifyError, type HookNotifyError } from "../../errors.js";
import { newNotificationId } from "../../core/notification-id.js";
import type { Notification } from "../../core/notification.js";
import { acquireLock } from "../../link/lock.js";
import { processOwner } from "../../link/spawn.js";
import type { ServiceConfig } from "../../core/config.js";
import { announce } from "./announce.js";
import { DIGEST_OVER, idleDigest } from "./idle-digest.js";
import { partsOf } from "./parts.js";
import { noticeOf, type WatchFact } from "./notices.js";
import { projectOf } from "./org.js";
import { readWatchState, watchDir, writeWatchState } from "./state.js";

export interface PollOptions {
  digest: boolean;
  /** Only sessions on these computers (the list's computerId filter); empty: all. */
  computerIds?: readonly string[] | undefined;
  /** Only sessions on the computers of this host (GET /computers?hostId=, each poll). */
  hostId?: string | undefined;
  configPath?: string | undefined;
  signal?: AbortSignal | undefined;
}

export interface PollResult {
  announced: Notification[];
  errors: HookNotifyError[];
  /** Things a person should know that are not failures (a session list longer than a poll reads). */
  warnings: string[];
  /** Set when another watch holds the lock: this poll did nothing. */
  busy?: boolean;
}

const PART_MS = 30_000;

// Polls once under the watch lock; never throws for a service error (they are in `errors`).
export async function pollOnce(
  deps: Deps,
  loaded: LoadedConfig,
  service: ServiceConfig,
  options: PollOptions,
): Promise<PollResult> {
  const dir = watchDir(deps);
  await import("node:fs/promises").then((fs) => fs.mkdir(dir, { recursive: true, mode: 0o700 }));
  const lock = await acquireLock(`${dir}/lock`, processOwner(deps));
  if (!lock) return { announced: [], errors: [], warnings: [], busy: true };
  try {
    const scope = stateScope(service, options);
    const state = await readWatchState(dir, scope);
    const result: PollResult = { announced: [], errors: [], warnings: [] };
    const parts = partsOf(deps, service, options, state, result);
    for (const part of parts) {
      const timer = deadline(PART_MS, options.signal);
      try {
        const facts = await part({ service, env: deps.env, signal: timer.signal });
        const notices = facts.map((fact) => ({
          notice: noticeFor(fact, loaded, projectOf(service.baseUrl, state), deps),
          key: keyOf(fact),
          idle: fact.kind === "SessionIdle",
        }));
        const idle = notices.filter((n) => n.idle);
        // A wave of finished turns is one notification listing them, not one per session.
        const batch =
          idle.length > DIGEST_OVER
            ? [
                ...notices.filter((n) => !n.idle),
                { notice: idleDigest(idle.map((n) => n.notice)), key: "sessions-digest" },
              ]
            : notices;
        for (const { notice, key } of batch) {
          await announce(notice, loaded, deps, { configPath: options.configPath, key });
          result.announced.push(notice);
        }
      } catch (error) {
        result.errors.push(toHookNotifyError(error));
      } finally {
        timer.clear();
      }
      await lock.refresh();
    }
    await writeWatchState(dir, scope, state);
    return result;
  } finally {
    await lock.release();
  }
}

// What the state is kept apart by: the service (its base URL) and the computer filter, so a
// switch of baseUrl starts a new baseline instead of comparing two organisations.
function stateScope(service: ServiceConfig, options: PollOptions): string {
  const computers = [...(options.computerIds ?? [])].sort();
  return [
    service.baseUrl,
    ...computers,
    ...(options.hostId ? [`host ${options.hostId}`] : []),
  ].join("\n");
}

function noticeFor(
  fact: WatchFact,
  loaded: LoadedConfig,
  project: string,
  deps: Deps,
): Notification {
  return noticeOf(fact, loaded.value, { id: newNotificationId(), now: deps.now(), project });
}

function keyOf(fact: WatchFact): string {
  return "sessionId" in fact ? fact.sessionId : "computerId" in fact ? fact.computerId : fact.kind;
}
