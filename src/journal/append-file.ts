// One append to the log's file, as every writer of the journal does it (append.ts):
//   - O_NONBLOCK: a FIFO in the log's place (no reader) fails at once instead of blocking the run
//     and its deadline timer; anything but a regular file is refused.
//   - Rotation by size, whoever writes: past MAX_LOG_BYTES the file becomes log.1.ndjson (replacing
//     the one before), so the log and its one rotated file stay under twice that, however long only
//     the worker writes.
import { closeSync, constants, fstatSync, openSync, renameSync, writeSync } from "node:fs";

// The rotated file beside the log: log.ndjson → log.1.ndjson.
export function rotatedPath(path: string): string {
  return path.replace(/\.ndjson$/, ".1.ndjson");
}

// Appends to a regular file, opened non-blocking; rotates it first when it is over maxBytes.
export function appendText(path: string, text: string, maxBytes: number): void {
  const nonblock = (constants as Partial<typeof constants>).O_NONBLOCK ?? 0;
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | nonblock;
  let fd = openSync(path, flags, 0o600);
  try {
    let info = fstatSync(fd);
    if (info.isFile() && info.size > maxBytes) {
      closeSync(fd);
      rotate(path);
      fd = openSync(path, flags, 0o600);
      info = fstatSync(fd);
    }
    if (!info.isFile()) throw new Error(`${path}: not a regular file`);
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

function rotate(path: string): void {
  try {
    renameSync(path, rotatedPath(path));
  } catch {
    // Another writer rotated it first: the path is a fresh file (or will be, when reopened).
  }
}
