// stdin for the hook's fast path (fast-hook.ts), read without process.stdin: constructing it for
// a socket (what node-based clients give their hooks) loads net and the stream modules, ~17 M
// instructions, more than the rest of the fast path. Public fs only, three ways, by what fd 0 is:
// - a regular file: read with readvSync (it cannot block; readSync, which the fast path never
//   calls, would cost it a compile);
// - a pipe on Linux: opened again through /proc/self/fd with O_NONBLOCK (a new open file
//   description, so fd 0 stays as the client made it) and read whenever a poll finds data:
//   no thread, no waiting past a deadline;
// - anything else (a socket, what node-based clients give; a pipe on macOS): fs.read in the
//   thread pool (~1.5 M instructions, and libuv starts its threads). No public API opens a socket
//   without blocking short of node:net (~17 M). A read that blocks there forever (a client that
//   keeps stdin open and never writes) would keep node from exiting (exit joins the pool's
//   threads): `stuck()` says so, and the caller then ends the process by a signal once
//   everything is logged.
// Everything read is recorded, so that the full pipeline can be handed all of it (replay()).
import { closeSync, constants, fstatSync, openSync, read, readvSync, type Stats } from "node:fs";
import type { InputSource } from "../input-source.js";
import { parses } from "../whole-json.js";

export interface FdInput extends InputSource {
  /** The whole event if the client has written it all already (the usual case), read at once;
   * undefined otherwise, and read() goes on from there. */
  readWaiting(maxBytes: number): string | undefined;
  /** One read (thread pool or poll) within `timeoutMs`: `done` gets the whole event if that read
   * completed it (the client wrote it all at once, the usual case), else undefined, and read()
   * goes on from there. Callbacks, no promise: a first await costs a run ~2 M instructions. */
  readOnce(timeoutMs: number, done: (whole: string | undefined) => void): void;
  /** Everything read so far, then the rest of fd 0: for the full pipeline. */
  replay(): InputSource;
  /** True while a thread-pool read waits: node cannot exit by itself then. */
  stuck(): boolean;
}

/** How often a Linux pipe is looked at while the event has not arrived. */
const POLL_MS = 2;

// undefined when fd 0 cannot be inspected (closed): the full path reports it.
export function fdInput(
  fd: number,
  platform: NodeJS.Platform = process.platform,
): FdInput | undefined {
  let info: Stats;
  try {
    info = fstatSync(fd);
  } catch {
    return undefined;
  }
  const reader = nonBlockingReader(fd, info, platform);
  const seen: Buffer[] = [];
  let queued: Buffer[] = []; // read ahead by readWaiting, not yet given out by read()
  let inPool = 0;
  let released = false;
  // A readOnce still waiting: a read() must not start a second read of fd 0 beside it.
  let inflight: (() => void)[] | undefined;
  let ended = false;
  let failure: Error | undefined;

  const record = (buffer: Buffer, bytes: number): number => {
    if (bytes > 0) seen.push(Buffer.from(buffer.subarray(0, bytes)));
    return bytes;
  };
  // Read ahead (readWaiting, readOnce): recorded, and kept for read() to give out. Their buffer is
  // their own, new for each read: kept as it is, not copied (a copy, and Buffer.concat of a
  // single chunk, cost the fast path node functions to compile on every run).
  const keep = (buffer: Buffer, bytes: number): void => {
    if (bytes <= 0) return;
    const chunk = buffer.subarray(0, bytes);
    seen.push(chunk);
    queued.push(chunk);
  };
  // UTF-8: toString() without arguments skips node's encoding look-up (see read-bounded.ts).
  const text = (): string =>
    (seen.length === 1 ? (seen[0] as Buffer) : Buffer.concat(seen)).toString();
  // Everything so far, if it is a whole JSON object: the whole event, as read-input.ts decides.
  const whole = (): string | undefined => {
    const all = text();
    return all.trimEnd().endsWith("}") && parses(all) ? all : undefined;
  };
  const fromQueue = (buffer: Buffer): number => {
    const chunk = queued.shift() as Buffer;
    const n = chunk.copy(buffer, 0, 0, Math.min(chunk.length, buffer.length));
    if (n < chunk.length) queued.unshift(chunk.subarray(n));
    return n;
  };
  const readMore = (buffer: Buffer): Promise<number> => {
    if (reader) return poll(reader.readNow, buffer, () => released);
    inPool++;
    return new Promise<number>((resolve, reject) => {
      read(fd, buffer, 0, buffer.length, null, (error, bytes) => {
        inPool--;
        if (error) reject(error);
        else resolve(bytes);
      });
    });
  };

  return {
    // Only a character device can be a terminal; the full path asks isatty() about it.
    isTTY: info.isCharacterDevice(),
    readWaiting(maxBytes) {
      if (!reader) return undefined;
      let size = 0;
      for (;;) {
        const buffer = Buffer.allocUnsafe(64 * 1024);
        let bytes: number | undefined;
        try {
          bytes = reader.readNow(buffer);
        } catch {
          return undefined;
        }
        if (bytes === 0) return text(); // the client closed stdin
        if (bytes === undefined) break; // nothing more yet
        keep(buffer, bytes);
        size += bytes;
        if (size > maxBytes) return undefined;
      }
      return whole(); // still open: a whole JSON object is the whole event
    },
    readOnce(timeoutMs, done) {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      let answered = false;
      const answer = (whole: string | undefined): void => {
        if (answered) return;
        answered = true;
        done(whole);
      };
      const timer = setTimeout(
        () => {
          answer(undefined);
        },
        Math.max(0, timeoutMs),
      );
      timer.unref();
      const waiting: (() => void)[] = [];
      inflight = waiting;
      const settle = (error: Error | null, bytes: number): void => {
        inflight = undefined;
        if (error) failure = error;
        else if (bytes === 0) ended = true;
        else keep(buffer, bytes);
        for (const wake of waiting) wake();
        clearTimeout(timer);
        answer(ended ? text() : whole());
      };
      if (reader) {
        poll(reader.readNow, buffer, () => released).then(
          (bytes) => {
            settle(null, bytes);
          },
          (error: unknown) => {
            settle(error instanceof Error ? error : new Error(String(error)), 0);
          },
        );
        return;
      }
      inPool++;
      read(fd, buffer, 0, buffer.length, null, (error, bytes) => {
        inPool--;
        settle(error, bytes);
      });
    },
    async read(buffer) {
      if (inflight) await new Promise<void>((wake) => inflight?.push(wake));
      if (queued.length > 0) return fromQueue(buffer);
      if (failure) throw failure;
      if (ended) return 0;
      return record(buffer, await readMore(buffer));
    },
    release() {
      released = true;
    },
    replay() {
      let rest: Buffer | undefined;
      queued = [];
      released = false;
      return {
        isTTY: false,
        read: async (buffer) => {
          if (inflight) await new Promise<void>((wake) => inflight?.push(wake));
          rest ??= Buffer.concat(seen); // everything read, a late first read included
          if (rest.length > 0) {
            const n = rest.copy(buffer, 0, 0, Math.min(rest.length, buffer.length));
            rest = rest.subarray(n);
            return n;
          }
          if (failure) throw failure;
          if (ended) return 0;
          return readMore(buffer);
        },
        release: () => {
          released = true;
          reader?.close();
        },
      };
    },
    stuck: () => inPool > 0,
  };
}

interface NonBlocking {
  /** Bytes read, 0 at the end, undefined when nothing is there yet. */
  readNow: (buffer: Buffer) => number | undefined;
  close: () => void;
}

function nonBlockingReader(
  fd: number,
  info: Stats,
  platform: NodeJS.Platform,
): NonBlocking | undefined {
  if (info.isFile()) {
    return {
      readNow: (buffer) => readvSync(fd, [buffer]),
      close: () => undefined,
    };
  }
  if (platform !== "linux" || !info.isFIFO()) return undefined;
  let own: number | undefined;
  try {
    own = openSync(`/proc/self/fd/${String(fd)}`, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  const handle = own;
  return {
    readNow: readNowOf(handle),
    close: () => {
      if (own === undefined) return;
      own = undefined;
      closeSync(handle);
    },
  };
}

// A read of a non-blocking fd: the bytes read, 0 at the end, undefined when nothing is there yet.
function readNowOf(fd: number): NonBlocking["readNow"] {
  return (buffer) => {
    try {
      return readvSync(fd, [buffer]);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EAGAIN") return undefined;
      throw error;
    }
  };
}

// Resolves with the next bytes (0 at the end), looking every POLL_MS; 0 once released (the
// reader gave up: its own deadline said so).
function poll(
  readNow: NonBlocking["readNow"],
  buffer: Buffer,
  released: () => boolean,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const look = (): void => {
      try {
        const bytes = released() ? 0 : readNow(buffer);
        if (bytes === undefined) setTimeout(look, POLL_MS);
        else resolve(bytes);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    look();
  });
}
