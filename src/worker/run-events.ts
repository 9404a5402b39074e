// The worker runs the hook events handed to it (issue #19, see link/inbox.ts): each one through
// the same pipeline a hook runs in-process (pipeline/run-hook.ts, mode "hook"), with the hook's
// event text, flags, folder, parent process and variables (link/hook-env.ts), so that the log
// line, the outbox entries and the deliveries are the ones the hook would have made. The log line
// says "via": "worker"; its "ms" counts from the hook's start.
import { renameSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import type { Deps } from "../deps.js";
import { textInput } from "../input-source.js";
import type { EventEntry } from "../link/inbox.js";
import { listEvents, MAX_EVENT_ENTRY_BYTES, takeEvent } from "../link/inbox.js";
import { hookEnvFor } from "../link/hook-env.js";
import { startWorker } from "../link/spawn.js";
import { journal, startRecord } from "../journal/append.js";
import type { OutboxPaths } from "../outbox/paths.js";
import { hookBudget } from "../pipeline/deadline.js";
import { runHook, type HookRun } from "../pipeline/run-hook.js";
import { readBoundedSync } from "../read-bounded.js";
import { isClient } from "../clients/index.js";
import { isNotificationId } from "../core/notification-id.js";

/** What a run taught the worker that its offer must know (link/offer.ts). */
export type OnRun = (run: HookRun) => void;

// Runs every waiting event, oldest first; the number run. `worker: false` (a flush) runs them
// without following their banners: the flush ends when its deliveries are done. `queuedFor`
// "this-round": the caller drains the outbox right after (a worker's round); the default starts a
// worker for what they queued (a leaving worker, a flush).
export async function runEvents(
  deps: Deps,
  paths: OutboxPaths,
  onRun: OnRun,
  options: { worker?: boolean; queuedFor?: "a-worker" | "this-round" } = {},
): Promise<number> {
  let ran = 0;
  for (const name of listEvents(paths)) {
    const taken = takeEvent(paths, name);
    if (taken === undefined) continue; // taken back by its hook
    const entry = readEntry(taken);
    if (entry === undefined) {
      const movedTo = join(paths.corrupt, `${name}.${Date.now().toString(36)}`);
      try {
        renameSync(taken, movedTo);
      } catch {
        // gone: nothing to keep
      }
      journal(deps, {
        outbox: "quarantined",
        key: name,
        message: "not a hook event entry",
        movedTo,
      });
      continue;
    }
    const run = await runEvent(
      deps,
      entry,
      options.worker ?? true,
      options.queuedFor ?? "a-worker",
    );
    onRun(run);
    try {
      unlinkSync(taken);
    } catch {
      // already gone
    }
    ran++;
  }
  return ran;
}

async function runEvent(
  deps: Deps,
  entry: EventEntry,
  worker: boolean,
  queuedFor: "a-worker" | "this-round",
): Promise<HookRun> {
  const now = deps.now();
  const eventDeps: Deps = {
    stdin: textInput(entry.payload),
    get stdout() {
      return deps.stdout;
    },
    get stderr() {
      return deps.stderr;
    },
    env: hookEnvFor(deps.env, entry.env),
    platform: deps.platform,
    arch: deps.arch,
    get osRelease() {
      return deps.osRelease;
    },
    cwd: entry.cwd,
    homedir: deps.homedir,
    now: deps.now,
    ppid: entry.ppid,
    worker,
  };
  const run: HookRun = { record: { ...startRecord(entry.receivedAt), via: "worker" } };
  const { config, timeout, client, event } = entry.args;
  return runHook(eventDeps, {
    configPath: config,
    client,
    event,
    notificationId: entry.id,
    mode: "hook",
    // The hook is long gone: the budget is for the writes and hand-offs, from now.
    deadline: hookBudget(now, timeout).deadline,
    explicitTimeout: timeout !== undefined,
    run,
    // A leaving worker or a flush starts one for what the events queued (or asks the live one).
    link: { whenQueued: queuedFor === "this-round" ? "this-round" : startWorker },
  });
}

// The entry, checked by hand; undefined when it is not one.
function readEntry(file: string): EventEntry | undefined {
  try {
    const text = readBoundedSync(file, { maxBytes: MAX_EVENT_ENTRY_BYTES, noFollow: true });
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const raw = parsed as Partial<Record<keyof EventEntry, unknown>>;
    const args = raw.args as Partial<Record<keyof EventEntry["args"], unknown>> | null | undefined;
    const env = raw.env as Record<string, unknown> | null | undefined;
    const ok =
      raw.version === 1 &&
      typeof raw.payload === "string" &&
      (raw.id === undefined || isNotificationId(raw.id)) &&
      typeof raw.receivedAt === "number" &&
      typeof raw.cwd === "string" &&
      typeof raw.ppid === "number" &&
      typeof args === "object" &&
      args !== null &&
      (args.config === undefined || typeof args.config === "string") &&
      (args.timeout === undefined || typeof args.timeout === "number") &&
      (args.client === undefined || isClient(args.client)) &&
      (args.event === undefined || typeof args.event === "string") &&
      typeof env === "object" &&
      env !== null &&
      Object.values(env).every((value) => typeof value === "string");
    return ok ? (raw as EventEntry) : undefined;
  } catch {
    return undefined;
  }
}
