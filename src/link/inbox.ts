// Whole hook events handed to the live worker (issue #19): outbox/events/<time>-<pid>-<rand>.json.
// The hook writes one durably (temp file, fdatasync, rename) and then knocks on the worker's FIFO;
// the worker takes it by a rename and runs the same pipeline the hook would have run. If the knock
// finds no reader (the worker died or is leaving), the hook takes the event back by a rename, which
// only one side can win, and runs the pipeline itself: an event is run once, by one of them.
// Synchronous: this is the hook's fast path, and node:fs/promises costs it ~2 ms to load.
import {
  closeSync,
  constants,
  fdatasyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writevSync,
} from "node:fs";
import { join, sep } from "node:path";
import type { Client } from "../core/hook-event.js";
import type { OutboxPaths } from "../outbox/paths.js";
import { MAX_EVENT_BYTES } from "../core/defaults.js";

/** One hook event, as the hook received it, for the worker to run. */
export interface EventEntry {
  version: 1;
  build: string;
  /** The hook's flags; the event itself is `payload`. */
  args: {
    config?: string | undefined;
    timeout?: number | undefined;
    client?: Client | undefined;
    event?: string | undefined;
  };
  /** The event text as read (stdin or Codex's argument), secrets masked (link/stamp.ts). */
  payload: string;
  /** The notification's id, given by the hook: a run again after its worker died (recoverEvents)
   * is the same notification, to the repeat rules' markers and to the outbox's keys. Entries of a
   * build before it have none (a new id then). */
  id?: string | undefined;
  /** When the hook started (ms since the epoch). */
  receivedAt: number;
  cwd: string;
  ppid: number;
  /** The hook's variables the pipeline reads (HOOK_ENV_KEYS); never a secret. */
  env: Record<string, string>;
}

/** The largest entry a worker reads (run-events.ts): twice the largest event, for its escapes. */
export const MAX_EVENT_ENTRY_BYTES = 2 * MAX_EVENT_BYTES;

/** Names end so: a taken entry is renamed to `<name>.<pid>.taken`, a taken-back one `.back`. */
const SUFFIX = ".json";

// Durable before it returns: the name of the new entry in events/.
export function writeEvent(paths: OutboxPaths, entry: EventEntry): string {
  const data = Buffer.from(`${JSON.stringify(entry)}\n`);
  // What a worker reads back (run-events.ts); larger (an event of escapes) stays with the hook.
  if (data.length > MAX_EVENT_ENTRY_BYTES)
    throw Object.assign(new Error("too large"), { code: "EFBIG" });
  const name = `${entry.receivedAt.toString(36)}-${String(process.pid)}-${Math.random().toString(36).slice(2, 8)}${SUFFIX}`;
  const temp = `${paths.tmp}${sep}${name}.tmp`;
  let fd: number;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    for (const dir of [paths.tmp, paths.events]) mkdirSync(dir, { recursive: true, mode: 0o700 });
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  }
  try {
    writeAll(fd, data);
    fdatasyncSync(fd);
  } catch (error) {
    // The hook runs the event itself now: a whole file left here would be adopted and run again.
    closeSync(fd);
    rmQuietly(temp);
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, `${paths.events}${sep}${name}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(paths.events, { recursive: true, mode: 0o700 });
    renameSync(temp, join(paths.events, name));
  }
  return name;
}

function rmQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Gone already, or the folder is unwritable: the worker's adoption finds its writer alive
    // until the hook exits, and a file that does not parse is never run.
  }
}

// writevSync, not writeSync: compiling writeSync and the string checks it runs first costs every
// hook run ~0.2 M instructions more. A short write (a full disk) throws: the hook takes the event
// back and runs it itself, as for any failed write.
function writeAll(fd: number, data: Buffer): void {
  const written = writevSync(fd, [data]);
  if (written !== data.length) {
    throw Object.assign(new Error(`wrote ${String(written)} of ${String(data.length)} bytes`), {
      code: "EIO",
    });
  }
}

// Knocks on the worker's FIFO: true when a reader has it open (the worker is alive and will look
// at events/ after this), false when nobody reads it (gone, or leaving: its last look is over).
// O_NONBLOCK: opening a FIFO without a reader fails at once (ENXIO) instead of waiting for one.
// `message`: "e<pid>\n" (an event is waiting, from this process: the worker starts on it once the
// hook has exited) or "s<config path>\n" (the stamp is stale for that config).
export function knock(fifo: string, message = `e${String(process.pid)}\n`): boolean {
  const fd = openWriter(fifo);
  if (fd === undefined) return false;
  try {
    writevSync(fd, [Buffer.from(message)]);
  } catch {
    // EAGAIN: the pipe is full of knocks the worker has yet to read; it will look anyway.
  } finally {
    closeSync(fd);
  }
  return true;
}

// True when a worker holds `fifo` open (a knock would get through); false when nobody does (its
// worker was killed before it could remove it), or when it is not a FIFO. Nothing is written.
export function fifoHasReader(fifo: string): boolean {
  const fd = openWriter(fifo);
  if (fd === undefined) return false;
  closeSync(fd);
  return true;
}

// The FIFO opened for writing, or undefined: ENXIO when nobody reads it (O_NONBLOCK fails at once
// instead of waiting for a reader), or gone, or a link.
function openWriter(fifo: string): number | undefined {
  try {
    const { O_NOFOLLOW = 0 } = constants as Partial<typeof constants>;
    return openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK | O_NOFOLLOW);
  } catch {
    return undefined;
  }
}

// Renames `file` to a name only this process uses (`<file>.<pid>.<tag>`): of a hook and a worker
// racing for one entry, exactly one rename wins. The new path, or undefined if it was gone.
export function takeAside(file: string, tag: "taken" | "back"): string | undefined {
  const aside = `${file}.${String(process.pid)}.${tag}`;
  try {
    renameSync(file, aside);
    return aside;
  } catch {
    return undefined;
  }
}

// The hook takes its event back: true when it was still there (now the hook's to run).
export function takeBack(paths: OutboxPaths, name: string): boolean {
  const aside = takeAside(join(paths.events, name), "back");
  if (aside === undefined) return false;
  try {
    unlinkSync(aside);
  } catch {
    // left behind: the worker's sweep removes .back files
  }
  return true;
}

// The events waiting, oldest first.
export function listEvents(paths: OutboxPaths): string[] {
  try {
    return readdirSync(paths.events)
      .filter((name) => name.endsWith(SUFFIX))
      .sort();
  } catch {
    return [];
  }
}

// The worker takes one: the path of the taken file, or undefined if the hook took it back first.
export function takeEvent(paths: OutboxPaths, name: string): string | undefined {
  return takeAside(join(paths.events, name), "taken");
}

// At a worker's start: events a dead worker had taken go back in line, and run again as the same
// notification (their id): the repeat rules let them through, the outbox keys what they queue
// as before (a banner the dead worker had shown may show again; nothing is lost); a hook's
// leftover `.back` file is removed.
export function recoverEvents(paths: OutboxPaths, isAlive: (pid: number) => boolean): void {
  let names: string[];
  try {
    names = readdirSync(paths.events);
  } catch {
    return;
  }
  for (const name of names) {
    const match = /^(.+\.json)\.(\d+)\.(taken|back)$/.exec(name);
    if (!match) continue;
    const [, original = "", pid = "0", kind] = match;
    try {
      if (kind === "back") unlinkSync(join(paths.events, name));
      else if (!isAlive(Number(pid)))
        renameSync(join(paths.events, name), join(paths.events, original));
    } catch {
      // another worker got there first
    }
  }
}
