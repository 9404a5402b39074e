// fd 0 read without blocking (fd-input.ts): a regular file with readvSync (it cannot block;
// readSync, which the fast path never calls, would cost it a compile); a pipe on Linux opened
// again through /proc/self/fd with O_NONBLOCK (a new open file description, so fd 0 stays as the
// client made it) and read whenever a poll finds data: no thread, no waiting past a deadline.
// And landed(): a thread-pool read of a socket (fd-input.ts) waited for without a timer.
import { closeSync, constants, openSync, readvSync, type Stats } from "node:fs";

/** How often a Linux pipe is looked at while the event has not arrived. */
const POLL_MS = 2;
/** How long fd-input.ts waits, without a timer, for a thread-pool read to land (the client wrote
 * the event before it started the hook: it lands within a thread's start), and how often it looks. */
const LANDING_MS = 20;
const NAP_MS = 0.1;

export interface NonBlocking {
  /** Bytes read, 0 at the end, undefined when nothing is there yet. */
  readNow: (buffer: Buffer) => number | undefined;
  close: () => void;
}

// undefined: fd 0 cannot be read without blocking here (fd-input.ts reads it in the thread pool).
export function nonBlockingReader(
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
export function poll(
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

// True once the thread-pool read has put its first byte in `first` (zero before): the read is
// over and its callback is the loop's next, so no timer is needed (a timer's first use compiles
// node's timers, ~1.6 M instructions on Node 20). Waits at most LANDING_MS, in naps; a read
// that ends with nothing (the client closed stdin) or not yet (a slow client) gets the timer.
export function landed(first: Uint8Array, timeoutMs: number): boolean {
  const nap = new Int32Array(new SharedArrayBuffer(4));
  const until = Date.now() + Math.min(LANDING_MS, timeoutMs);
  while (Atomics.load(first, 0) === 0 && Date.now() < until) Atomics.wait(nap, 0, 0, NAP_MS);
  return Atomics.load(first, 0) !== 0;
}
