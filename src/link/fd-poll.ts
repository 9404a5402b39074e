// fd 0 read without blocking (fd-input.ts): a regular file with readvSync (it cannot block;
// readSync, which the fast path never calls, would cost it a compile); a pipe on Linux opened
// again through /proc/self/fd with O_NONBLOCK (a new open file description, so fd 0 stays as the
// client made it) and read whenever a poll finds data: no thread, no waiting past a deadline.
import { closeSync, constants, openSync, readvSync, type Stats } from "node:fs";

/** How often a Linux pipe is looked at while the event has not arrived. */
const POLL_MS = 2;

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
