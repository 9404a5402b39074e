import { fstatSync, read } from "node:fs";
import type { Readable } from "node:stream";

/** Where the hook event comes from: stdin in production, text or a stream in tests. */
export interface InputSource {
  readonly isTTY: boolean;
  /** Fills `buffer` from the start; resolves 0 at end of input. */
  read(buffer: Buffer): Promise<number>;
  /** Stop reading and let the process exit even if the writer never closes. */
  release(): void;
}

// A regular file on fd 0 is read with fs.read (~1 ms; constructing process.stdin costs ~6 ms).
// Pipes go through process.stdin: a blocking fs.read on a pipe that never closes would pin a
// thread-pool thread and keep the process from ever exiting. Only a character device can be a
// terminal: node:tty (which loads net and ~27 stream modules, ~8 M instructions) is asked then only.
export function stdinInput(getStdin: () => Readable): InputSource {
  const kind = kindOf(0);
  if (kind === "file")
    return { isTTY: false, read: (buffer) => readFd(0, buffer), release: () => undefined };
  return { ...streamInput(getStdin()), isTTY: kind === "device" && isTerminal(0) };
}

// node:tty loaded when asked, not with this module: an import would load it for every run of the
// bundle that holds this file (the hook's own run when it delivers itself, stdin a file or pipe).
function isTerminal(fd: number): boolean {
  return process.getBuiltinModule("node:tty").isatty(fd);
}

function kindOf(fd: number): "file" | "device" | "other" {
  try {
    const info = fstatSync(fd);
    return info.isFile() ? "file" : info.isCharacterDevice() ? "device" : "other";
  } catch {
    return "other"; // fd 0 closed: the stream path reports end of input
  }
}

function readFd(fd: number, buffer: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    read(fd, buffer, 0, buffer.length, null, (error, bytes) => {
      if (error) reject(error);
      else resolve(bytes);
    });
  });
}

// Adapts a Readable to InputSource: chunks queue up until read() takes them.
export function streamInput(stream: Readable): InputSource {
  const queue: Buffer[] = [];
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  stream.on("data", (chunk: Buffer) => {
    queue.push(chunk);
    wake?.();
  });
  stream.on("end", () => {
    ended = true;
    wake?.();
  });
  stream.on("error", (error: Error) => {
    failure = error;
    wake?.();
  });
  return {
    isTTY: false,
    async read(buffer) {
      while (queue.length === 0 && !ended && !failure) await new Promise<void>((r) => (wake = r));
      if (failure) throw failure;
      const chunk = queue.shift();
      if (!chunk) return 0;
      const n = chunk.copy(buffer, 0, 0, Math.min(chunk.length, buffer.length));
      if (n < chunk.length) queue.unshift(chunk.subarray(n));
      return n;
    },
    release() {
      stream.pause();
      (stream as unknown as { unref?: () => void }).unref?.();
    },
  };
}

// An InputSource over fixed text (tests, and `hook-notify test`).
export function textInput(text: string): InputSource {
  let rest: Buffer = Buffer.from(text, "utf8");
  return {
    isTTY: false,
    read(buffer) {
      const n = rest.copy(buffer, 0, 0, Math.min(rest.length, buffer.length));
      rest = rest.subarray(n);
      return Promise.resolve(n);
    },
    release: () => undefined,
  };
}
