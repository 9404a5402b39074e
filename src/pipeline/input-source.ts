import { read } from "node:fs";
import { isatty } from "node:tty";

/** Where the hook event comes from: fd 0 in production, a string or stream in tests. */
export interface InputSource {
  readonly isTTY: boolean;
  /** Fills `buffer` from the start; resolves 0 at end of input. */
  read(buffer: Buffer): Promise<number>;
}

// Reads fd 0 with fs.read: ~1 ms, where constructing process.stdin costs ~8 ms on the hook path.
export function fdInput(fd = 0): InputSource {
  return {
    isTTY: isatty(fd),
    read: (buffer) => readOnce(fd, buffer),
  };
}

function readOnce(fd: number, buffer: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    read(fd, buffer, 0, buffer.length, null, (error, bytes) => {
      if (!error) resolve(bytes);
      else if (error.code === "EAGAIN")
        setTimeout(() => {
          readOnce(fd, buffer).then(resolve, reject);
        }, 5);
      else if (error.code === "EOF" || error.code === "EBADF") resolve(0);
      else reject(error);
    });
  });
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
  };
}
