// The hook's hand-over from the full path (PROTOCOL.md, "a hook", step 4): a hook that did not
// hand its event over from dist/hook.cjs (Windows, an event the fast path could not read whole
// in time, a live worker of another build or other ${VAR} values) has loaded the config
// itself, so it masks the event with the config's secrets, writes it durably to events/ and lets
// a worker run it, as the fast path does. The hook never waits for a program or the network.
// It keeps the event and runs the pipeline itself only when no worker could run it as the hook
// would: a live worker of another build, or one whose ${VAR} values differ from the hook's.
import type { Deps } from "../deps.js";
import { buildId } from "../build-id.js";
import { scrub, scrubValue } from "../redact.js";
import { envPrint, readStamp } from "./stamp.js";
import { carriedEnv } from "./hook-env.js";
import { absoluteFrom } from "../path-join.js";
import { knock, takeBack, writeEvent, type EventEntry } from "./inbox.js";
import { outboxPaths } from "../outbox/paths.js";
import { processOwner } from "./spawn.js";
import { startDetached } from "./start-detached.js";
import { fastPathOn } from "./rhythm.js";
import { newNotificationId } from "../core/notification-id.js";

/** What the hook knows when it hands over. */
export interface HandOverRequest {
  /** The event text as read; masked here before anything is written. */
  raw: string;
  secrets: readonly string[];
  args: EventEntry["args"];
  /** When the hook started (ms since the epoch). */
  started: number;
}

/** Why the hook keeps its event: the log line says so. */
export type HandOverResult =
  "handed" | "kept: another worker" | "kept: cannot write" | "kept: no worker could be started";

// Masks, writes, then knocks or starts a worker; "handed" when a worker has the event now.
export function handOverEvent(deps: Deps, request: HandOverRequest): HandOverResult {
  const paths = outboxPaths(deps);
  const stamp = readStamp(paths.stamp);
  const live = stamp !== undefined && processOwner(deps).isAlive(stamp.pid);
  if (live && !sameWorker(stamp, deps.env)) return "kept: another worker";
  let name: string;
  try {
    name = writeEvent(paths, entryOf(deps, request));
  } catch {
    return "kept: cannot write";
  }
  if (live && fastPathOn(deps.env, deps.platform) && knock(stamp.fifo)) return "handed";
  // No socket, no lock check (they would load node:net): a worker that finds the lock taken
  // wakes its holder and leaves (PROTOCOL.md).
  if (startDetached(deps.env, deps.cwd)) return "handed";
  // No worker can run it: the hook's own, unless a worker took it in the meantime.
  return takeBack(paths, name) ? "kept: no worker could be started" : "handed";
}

// The event as the worker reads it, with every configured secret masked in its parsed values
// (escapes of any kind cannot hide one), and the hook's flags, folder and variables.
function entryOf(deps: Deps, request: HandOverRequest): EventEntry {
  let payload: string;
  try {
    payload = JSON.stringify(scrubValue(JSON.parse(request.raw), request.secrets));
  } catch {
    // Too deep to walk (5,000 levels of nesting): the text itself, masked as text.
    payload = scrub(request.raw, request.secrets);
  }
  return {
    version: 1,
    build: buildId(),
    // Paths leave the hook absolute: the worker reads them from its own folder.
    args: { ...request.args, config: absoluteFrom(deps.cwd, request.args.config) },
    payload,
    id: newNotificationId(),
    receivedAt: request.started,
    cwd: deps.cwd,
    ppid: deps.ppid ?? process.ppid,
    env: carriedEnv(deps.env, deps.cwd),
  };
}

// The live worker runs this build and sees the config's ${VAR}s with this hook's values.
function sameWorker(
  stamp: NonNullable<ReturnType<typeof readStamp>>,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  return (
    stamp.build === buildId() && envPrint(stamp.env.names, stamp.env.salt, env) === stamp.env.print
  );
}
