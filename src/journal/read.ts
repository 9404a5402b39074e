// The only reader of log.ndjson's files: newest line first, a chunk at a time from the end, so
// `log -n 20` reads the end of a long log and stops; or both files whole, oldest first.
import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { rotatedPath } from "./append-file.js";

const CHUNK_BYTES = 64 * 1024;

// Calls visit with each line, newest first (the log, then its rotated file), until it returns
// true. False when neither file exists.
export function readBackwards(path: string, visit: (line: string) => boolean): boolean {
  let found = false;
  for (const file of [path, rotatedPath(path)]) {
    const result = readFileBackwards(file, visit);
    if (result !== "missing") found = true;
    if (result === "stopped") break;
  }
  return found;
}

// The newest lines until `enough` says so (it sees each line, newest first), oldest first.
// undefined when there is no log.
export function readTail(path: string, enough: (line: string) => boolean): string[] | undefined {
  const lines: string[] = [];
  const found = readBackwards(path, (line) => {
    lines.push(line);
    return enough(line);
  });
  return found ? lines.reverse() : undefined;
}

// The rotated file first, then the current one: oldest line first. undefined when neither exists.
export function readLogFiles(path: string): string | undefined {
  const texts = [rotatedPath(path), path].map((file) => {
    try {
      return readFileSync(file, "utf8");
    } catch {
      return undefined;
    }
  });
  if (texts.every((text) => text === undefined)) return undefined;
  return texts.filter((text) => text !== undefined).join("\n");
}

function readFileBackwards(
  file: string,
  visit: (line: string) => boolean,
): "missing" | "stopped" | "done" {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return "missing";
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return "missing";
    let end = info.size;
    // The bytes of a line cut by the chunk's start, kept until its beginning is read.
    let rest = Buffer.alloc(0);
    while (end > 0) {
      const start = Math.max(0, end - CHUNK_BYTES);
      const chunk = Buffer.alloc(end - start);
      readSync(fd, chunk, 0, chunk.length, start);
      const bytes = Buffer.concat([chunk, rest]);
      let cut = bytes.length;
      for (let i = bytes.length - 1; i >= 0; i -= 1) {
        if (bytes[i] !== 0x0a) continue;
        const line = bytes.subarray(i + 1, cut).toString("utf8");
        cut = i;
        if (line.trim() !== "" && visit(line)) return "stopped";
      }
      rest = bytes.subarray(0, cut);
      end = start;
    }
    const first = rest.toString("utf8");
    if (first.trim() !== "" && visit(first)) return "stopped";
    return "done";
  } catch {
    return "done";
  } finally {
    closeSync(fd);
  }
}
