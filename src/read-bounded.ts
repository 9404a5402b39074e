// Reads of files hook-notify does not control (a project's .hook-notify.json, the user config, an
// outbox entry): only a regular file, opened without blocking, and never more than `maxBytes`. A
// FIFO, /dev/zero or a socket named by such a file is refused at once; it can neither hang a
// synchronous read (which would also block the deadline timer) nor fill memory.
import { closeSync, constants, fstatSync, openSync, readvSync } from "node:fs";
import { open } from "node:fs/promises";

export interface BoundedReadOptions {
  maxBytes: number;
  /** Refuse a symbolic link as the last path component (files inside the outbox). */
  noFollow?: boolean;
}

/** Why a file was refused; `code` is an errno-like string, as fs errors have. */
export type RefusedCode = "ENOTREG" | "EFBIG";

// O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer.
// Windows has neither flag (and no FIFOs in the file system): 0 there.
function flagsFor(options: BoundedReadOptions): number {
  const flags = constants as Partial<typeof constants>;
  const nofollow = options.noFollow ? (flags.O_NOFOLLOW ?? 0) : 0;
  return constants.O_RDONLY | (flags.O_NONBLOCK ?? 0) | nofollow;
}

function refused(path: string, code: RefusedCode, detail: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${path}: ${detail}`), { code, path });
}

function check(path: string, info: { isFile(): boolean; size: number }, maxBytes: number): void {
  if (!info.isFile()) throw refused(path, "ENOTREG", "not a regular file; refused");
  if (info.size > maxBytes) throw refused(path, "EFBIG", `larger than ${maxBytes} bytes; refused`);
}

// Room for the file as fstat saw it plus one byte: a file that fills it grew while being read.
function bufferFor(size: number, maxBytes: number): Buffer {
  return Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
}

function textOf(path: string, buffer: Buffer, size: number, maxBytes: number): string {
  if (size === buffer.length) {
    const detail = size > maxBytes ? "grew past the limit" : "changed while being read";
    throw refused(path, "EFBIG", `${detail}; refused`);
  }
  // toString() without arguments is UTF-8 straight away; with any, node first compiles (on the
  // hook path, every run) the functions that look the encoding up.
  return buffer.subarray(0, size).toString();
}

// Synchronous, for the hook path (node:fs/promises costs the hook ~2 ms to load).
export function readBoundedSync(path: string, options: BoundedReadOptions): string {
  const fd = openSync(path, flagsFor(options));
  try {
    const info = fstatSync(fd);
    check(path, info, options.maxBytes);
    const buffer = bufferFor(info.size, options.maxBytes);
    let size = 0;
    // readvSync: what the hook's fast path reads with (compiling readSync too would cost it).
    for (let n = 1; n > 0 && size < buffer.length; size += n) {
      n = readvSync(fd, [buffer.subarray(size)]);
    }
    return textOf(path, buffer, size, options.maxBytes);
  } finally {
    closeSync(fd);
  }
}

// The same for the worker and the commands, without pinning a thread-pool thread.
export async function readBounded(path: string, options: BoundedReadOptions): Promise<string> {
  const handle = await open(path, flagsFor(options));
  try {
    const info = await handle.stat();
    check(path, info, options.maxBytes);
    const buffer = bufferFor(info.size, options.maxBytes);
    let size = 0;
    for (let n = 1; n > 0 && size < buffer.length; size += n) {
      ({ bytesRead: n } = await handle.read(buffer, size, buffer.length - size, null));
    }
    return textOf(path, buffer, size, options.maxBytes);
  } finally {
    await handle.close();
  }
}
