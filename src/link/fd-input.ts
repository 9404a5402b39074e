// stdin for the hook's fast path (fast-hook.ts), read without process.stdin: constructing it for
// a socket (what node-based clients give their hooks) loads net and the stream modules, ~17 M
// instructions, more than the rest of the fast path. Public fs only, by what fd 0 is:
// - a regular file, or a pipe on Linux: read without blocking (fd-poll.ts);
// - anything else (a socket, what node-based clients give; a pipe on macOS): fs.read in the
//   thread pool (~1 M instructions, and libuv starts its threads), into shared memory whose first
//   byte tells that it landed (no timer when it did). No public API opens a socket
//   without blocking short of node:net (~17 M). A read that blocks there forever (a client that
//   keeps stdin open and never writes) would keep node from exiting (exit joins the pool's
//   threads): `stuck()` says so, and the caller then ends the process by a signal once
//   everything is logged.
// Everything read is recorded, so that the full pipeline can be handed all of it (replay()).
import { fstatSync, readv, type Stats } from "node:fs";
import type { InputSource } from "../input-source.js";
import { parses } from "../whole-json.js";
import { landed, nonBlockingReader, poll, type NonBlocking } from "./fd-poll.js";

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

/** What one read asks for. */
const READ_BYTES = 64 * 1024;

/** What one fdInput has read and how it reads more. */
interface Reading {
  fd: number;
  reader: NonBlocking | undefined;
  /** Everything read, for replay(). */
  seen: Buffer[];
  /** Read ahead by readWaiting or readOnce, not yet given out by read(). */
  queued: Buffer[];
  /** Thread-pool reads under way. */
  inPool: number;
  released: boolean;
  /** A readOnce still waiting: a read() must not start a second read of fd 0 beside it. */
  inflight: (() => void)[] | undefined;
  ended: boolean;
  failure: Error | undefined;
}

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
  const state: Reading = {
    fd,
    reader: nonBlockingReader(fd, info, platform),
    seen: [],
    queued: [],
    inPool: 0,
    released: false,
    inflight: undefined,
    ended: false,
    failure: undefined,
  };
  return {
    // Only a character device can be a terminal; the full path asks isatty() about it.
    isTTY: info.isCharacterDevice(),
    readWaiting: (maxBytes) => readWaiting(state, maxBytes),
    readOnce: (timeoutMs, done) => {
      readOnce(state, timeoutMs, done);
    },
    read: (buffer) => readNext(state, buffer),
    release() {
      state.released = true;
    },
    replay: () => replay(state),
    stuck: () => state.inPool > 0,
  };
}

// Read ahead (readWaiting, readOnce): recorded, and kept for read() to give out. Their buffer is
// their own, new for each read: kept as it is, not copied (a copy, and Buffer.concat of a single
// chunk, cost the fast path node functions to compile on every run).
function keep(state: Reading, buffer: Buffer, bytes: number): void {
  if (bytes <= 0) return;
  const chunk = buffer.subarray(0, bytes);
  state.seen.push(chunk);
  state.queued.push(chunk);
}

// UTF-8: toString() without arguments skips node's encoding look-up (see read-bounded.ts).
function text({ seen }: Reading): string {
  return (seen.length === 1 ? (seen[0] as Buffer) : Buffer.concat(seen)).toString();
}

// Everything so far, if it is a whole JSON object: the whole event, as read-input.ts decides.
function whole(state: Reading): string | undefined {
  const all = text(state);
  return all.trimEnd().endsWith("}") && parses(all) ? all : undefined;
}

function readWaiting(state: Reading, maxBytes: number): string | undefined {
  const { reader } = state;
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
    if (bytes === 0) return text(state); // the client closed stdin
    if (bytes === undefined) break; // nothing more yet
    keep(state, buffer, bytes);
    size += bytes;
    if (size > maxBytes) return undefined;
  }
  return whole(state); // still open: a whole JSON object is the whole event
}

function readOnce(
  state: Reading,
  timeoutMs: number,
  done: (whole: string | undefined) => void,
): void {
  const { reader } = state;
  // A thread-pool read goes into shared memory: its first byte says when it is done.
  const memory = reader ? undefined : new SharedArrayBuffer(4 + READ_BYTES);
  const buffer = memory ? Buffer.from(memory, 4, READ_BYTES) : Buffer.allocUnsafe(READ_BYTES);
  let answered = false;
  const answer = (event: string | undefined): void => {
    if (answered) return;
    answered = true;
    done(event);
  };
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    timer = setTimeout(
      () => {
        answer(undefined);
      },
      Math.max(0, timeoutMs),
    );
    timer.unref();
  };
  const waiting: (() => void)[] = [];
  state.inflight = waiting;
  const settle = (error: Error | null, bytes: number): void => {
    state.inflight = undefined;
    if (error) state.failure = error;
    else if (bytes === 0) state.ended = true;
    else keep(state, buffer, bytes);
    for (const wake of waiting) wake();
    if (timer) clearTimeout(timer);
    answer(state.ended ? text(state) : whole(state));
  };
  if (reader) {
    arm();
    poll(reader.readNow, buffer, () => state.released).then(
      (bytes) => {
        settle(null, bytes);
      },
      (error: unknown) => {
        settle(error instanceof Error ? error : new Error(String(error)), 0);
      },
    );
    return;
  }
  state.inPool++;
  readv(state.fd, [buffer], null, (error, bytes) => {
    state.inPool--;
    settle(error, bytes);
  });
  if (!landed(new Uint8Array(memory as SharedArrayBuffer, 4, 1), timeoutMs)) arm();
}

// The next bytes for read(): what was read ahead first, then fd 0 (recorded for replay()).
async function readNext(state: Reading, buffer: Buffer): Promise<number> {
  if (state.inflight) await new Promise<void>((wake) => state.inflight?.push(wake));
  const { queued } = state;
  if (queued.length > 0) {
    const chunk = queued.shift() as Buffer;
    const n = chunk.copy(buffer, 0, 0, Math.min(chunk.length, buffer.length));
    if (n < chunk.length) queued.unshift(chunk.subarray(n));
    return n;
  }
  if (state.failure) throw state.failure;
  if (state.ended) return 0;
  const bytes = await readMore(state, buffer);
  if (bytes > 0) state.seen.push(Buffer.from(buffer.subarray(0, bytes)));
  return bytes;
}

function readMore(state: Reading, buffer: Buffer): Promise<number> {
  if (state.reader) return poll(state.reader.readNow, buffer, () => state.released);
  state.inPool++;
  return new Promise<number>((resolve, reject) => {
    readv(state.fd, [buffer], null, (error, bytes) => {
      state.inPool--;
      if (error) reject(error);
      else resolve(bytes);
    });
  });
}

// Everything read so far (a late first read included), then the rest of fd 0.
function replay(state: Reading): InputSource {
  let rest: Buffer | undefined;
  state.queued = [];
  state.released = false;
  return {
    isTTY: false,
    read: async (buffer) => {
      if (state.inflight) await new Promise<void>((wake) => state.inflight?.push(wake));
      rest ??= Buffer.concat(state.seen);
      if (rest.length > 0) {
        const n = rest.copy(buffer, 0, 0, Math.min(rest.length, buffer.length));
        rest = rest.subarray(n);
        return n;
      }
      if (state.failure) throw state.failure;
      if (state.ended) return 0;
      return readMore(state, buffer);
    },
    release: () => {
      state.released = true;
      state.reader?.close();
    },
  };
}
