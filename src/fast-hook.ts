// The hook's fast path (issue #19): with a live worker that offers to run events (its stamp,
// outbox/fast.json, still true for this hook), the hook reads the event, writes it durably to
// outbox/events/ with the secrets the config knows masked, knocks on the worker's FIFO and exits
// 0. It loads no zod, no config schema, no sink and no socket: a few fs calls past node's start.
// Everything else (a --dry-run, --wait, another command, no worker, a stale stamp, a worker that
// does not answer the knock, Windows) goes to dist/cli.cjs, the full pipeline, with the event
// already read handed over. The full path behaves exactly as it always did.
import { closeSync, constants, fstatSync, openSync, read, readSync } from "node:fs";
import type { Handover } from "./commands/run.js";
import { hookArgs, isHookInvocation } from "./commands/run-flags.js";
import { userConfigPath } from "./config/paths.js";
import { buildId } from "./build-id.js";
import { textInput, type InputSource } from "./input-source.js";
import { knock, takeBack, writeEvent, type EventEntry } from "./outbox/inbox.js";
import { HOOK_ENV_KEYS } from "./outbox/hook-env.js";
import { maskText, readStamp, stampHolds } from "./outbox/fast-stamp.js";
import { outboxPaths } from "./outbox/paths.js";
import { hookBudget, inputWaitMs } from "./pipeline/deadline.js";
import { readInput } from "./pipeline/read-input.js";
import { MAX_EVENT_BYTES } from "./core/defaults.js";

/** Larger events take the full path: masking and writing them is no longer cheap. */
const MAX_FAST_BYTES = 64 * 1024;

type FullPath = (argv: string[], handover: Handover) => Promise<void>;

// bin/hook-notify.js calls this for every command line; `full` loads dist/cli.cjs on demand.
export async function main(argv: string[], full: () => { main: FullPath }): Promise<void> {
  const started = Date.now();
  const env = process.env;
  const offered =
    process.platform !== "win32" &&
    env.HOOK_NOTIFY_FAST !== "0" &&
    isHookInvocation(argv) &&
    readOffer(env);
  if (!offered) return full().main(argv, { started });
  const args = hookArgs(argv);
  if (args.dryRun || args.wait || !offered.holds(args.config)) {
    return full().main(argv, { started });
  }
  let raw: string;
  if (args.payload !== undefined) raw = args.payload;
  else {
    const stdin = fdInput(0);
    if (stdin === undefined || stdin.isTTY) return full().main(argv, { started });
    const complete = stdin.readWaiting(MAX_FAST_BYTES);
    if (complete !== undefined) raw = complete;
    else {
      const budget = hookBudget(started, args.timeout);
      const waitMs = inputWaitMs(budget.deadline - Date.now());
      try {
        raw = await readInput(stdin, {
          maxBytes: MAX_EVENT_BYTES,
          idleMs: waitMs,
          totalMs: waitMs,
        });
      } catch {
        // The full path reads again (what was read, then the rest) and reports as it always did.
        return full().main(argv, { started, input: stdin.replay() });
      }
    }
  }
  const handover = { started, input: textInput(raw) };
  const masked = raw.length <= MAX_FAST_BYTES ? maskText(raw, offered.stamp.mask) : undefined;
  if (masked === undefined || !parses(masked)) return full().main(argv, handover);
  const { config, timeout, client, event } = args;
  const entry: EventEntry = {
    version: 1,
    build: buildId(),
    args: { config, timeout, client, event },
    payload: masked,
    receivedAt: started,
    cwd: process.cwd(),
    ppid: process.ppid,
    env: pick(env),
  };
  let name: string;
  try {
    name = writeEvent(offered.paths, entry);
  } catch {
    return full().main(argv, handover);
  }
  if (knock(offered.stamp.fifo)) process.exit(0);
  // Nobody read the knock: the worker is gone or leaving. Ours to run, unless it took it first.
  if (takeBack(offered.paths, name)) return full().main(argv, handover);
  process.exit(0);
}

// The worker's offer, if there is one: its stamp and a check of it for this hook's --config.
function readOffer(env: NodeJS.ProcessEnv) {
  // os.homedir() is $HOME where it is set (POSIX); node:os costs ~1 M instructions to load.
  const home = env.HOME || process.getBuiltinModule("node:os").homedir();
  const deps = { env, homedir: home, platform: process.platform };
  const paths = outboxPaths(deps);
  const stamp = readStamp(paths.stamp);
  if (!stamp) return undefined;
  return {
    paths,
    stamp,
    holds: (config: string | undefined) => {
      const configPath = userConfigPath(deps, config);
      const held = stampHolds(stamp, { build: buildId(), configPath, env });
      // A stale offer: the knock asks the worker to look at this config (again).
      if (!held) knock(stamp.fifo, `s${configPath}\n`);
      return held;
    },
  };
}

function pick(env: NodeJS.ProcessEnv): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const key of HOOK_ENV_KEYS) {
    const value = env[key];
    if (value !== undefined) picked[key] = value;
  }
  return picked;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** fd 0 read with fs.read (no process.stdin, which loads net and streams), recording what it
 * read so that the full path can be given all of it. */
interface RecordedInput extends InputSource {
  /** All of the event if the client has written it already (the usual case), read at once
   * without a thread or a timer; else undefined, and read() goes on from there. */
  readWaiting(maxBytes: number): string | undefined;
  replay(): InputSource;
}

function fdInput(fd: number): RecordedInput | undefined {
  let info: ReturnType<typeof fstatSync>;
  try {
    info = fstatSync(fd);
  } catch {
    return undefined;
  }
  // Only a character device can be a terminal; the full path asks isatty() about it.
  const isTTY = info.isCharacterDevice();
  const seen: Buffer[] = [];
  let queued: Buffer[] = []; // read ahead by readWaiting, not yet given to read()
  let pending: Promise<number> | undefined;
  const readFd = (buffer: Buffer): Promise<number> =>
    new Promise((resolve, reject) => {
      read(fd, buffer, 0, buffer.length, null, (error, bytes) => {
        if (error) reject(error);
        else resolve(bytes);
      });
    });
  const fromQueue = (buffer: Buffer): number => {
    const chunk = queued.shift() as Buffer;
    const n = chunk.copy(buffer, 0, 0, Math.min(chunk.length, buffer.length));
    if (n < chunk.length) queued.unshift(chunk.subarray(n));
    return n;
  };
  return {
    isTTY,
    readWaiting(maxBytes) {
      const nonBlocking = waitingReader(fd, info);
      if (nonBlocking === undefined) return undefined;
      const { readNow, close } = nonBlocking;
      let size = 0;
      try {
        for (;;) {
          const buffer = Buffer.allocUnsafe(64 * 1024);
          const bytes = readNow(buffer);
          if (bytes === 0) return Buffer.concat(seen).toString("utf8"); // the client closed stdin
          if (bytes === undefined) break; // nothing more yet
          const chunk = buffer.subarray(0, bytes);
          seen.push(chunk);
          queued.push(chunk);
          size += bytes;
          if (size > maxBytes) return undefined;
        }
        // Still open: a whole JSON object is the whole event (as read-input.ts decides).
        const text = Buffer.concat(seen).toString("utf8");
        return text.trimEnd().endsWith("}") && parses(text) ? text : undefined;
      } catch {
        return undefined;
      } finally {
        close();
      }
    },
    read(buffer) {
      if (queued.length > 0) return Promise.resolve(fromQueue(buffer));
      pending = readFd(buffer).then((bytes) => {
        seen.push(Buffer.from(buffer.subarray(0, bytes)));
        pending = undefined;
        return bytes;
      });
      return pending;
    },
    release: () => undefined,
    replay() {
      let rest: Buffer | undefined;
      queued = [];
      return {
        isTTY,
        async read(buffer) {
          // A read still running when the fast path gave up finishes into `seen` first.
          if (rest === undefined) {
            if (pending) await pending.catch(() => 0);
            rest = Buffer.concat(seen);
          }
          if (rest.length > 0) {
            const n = rest.copy(buffer, 0, 0, Math.min(rest.length, buffer.length));
            rest = rest.subarray(n);
            return n;
          }
          return readFd(buffer);
        },
        release: () => undefined,
      };
    },
  };
}

// A way to read what is on fd 0 now without waiting: a regular file reads as is; on Linux a pipe
// is opened again through /proc with O_NONBLOCK (a new open file description: fd 0 itself stays
// as the client made it). Elsewhere undefined: the thread-pool read waits, bounded by a timer.
function waitingReader(
  fd: number,
  info: ReturnType<typeof fstatSync>,
): { readNow: (buffer: Buffer) => number | undefined; close: () => void } | undefined {
  if (info.isFile()) {
    return { readNow: (buffer) => readSync(fd, buffer, 0, buffer.length, null), close: () => {} };
  }
  if (process.platform !== "linux" || !info.isFIFO()) return undefined;
  let own: number;
  try {
    own = openSync(`/proc/self/fd/${String(fd)}`, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  return {
    readNow: (buffer) => {
      try {
        return readSync(own, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") return undefined;
        throw error;
      }
    },
    close: () => {
      closeSync(own);
    },
  };
}
