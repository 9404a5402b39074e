// The file moves the seen markers (seen-markers.ts) rest on, safe among many processes at once: an
// exclusive create ("wx": exactly one wins), and a stale file moved aside only if it is still the
// one that was found stale (the same inode). Synchronous, as the markers are.
import {
  closeSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from "node:fs";

// Creates a file (0600) at `path` holding `content` (empty by default) unless one is there,
// making `dir` (0700) when missing. A failed write after the create still counts as created: the
// claim is the file's existence; its content only names who made it.
export function createExclusive(
  dir: string,
  path: string,
  content = "",
): "created" | "exists" | "failed" {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(path, "wx", 0o600);
      try {
        if (content !== "") writeSync(fd, content);
      } catch {
        // a full disk: an empty marker, owned by nobody
      } finally {
        closeSync(fd);
      }
      return "created";
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return "exists";
      if (code !== "ENOENT") return "failed";
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
      } catch {
        return "failed";
      }
    }
  }
  return "failed";
}

// Renames the stale marker to a name of our own, then checks that it was the stale one (same
// inode): if another process renewed it in between, that fresh marker is put back and we lose.
export function moveAsideIfSame(path: string, stale: Stats): boolean {
  const aside = `${path}.${process.pid.toString(36)}${Math.random().toString(36).slice(2, 8)}.old`;
  try {
    renameSync(path, aside);
  } catch {
    return true; // already gone: the next exclusive create decides
  }
  const moved = statOrNothing(aside);
  if (moved && moved.ino !== stale.ino) {
    tryQuietly(() => {
      renameSync(aside, path);
    });
    return false;
  }
  tryQuietly(() => {
    unlinkSync(aside);
  });
  return true;
}

// The file's stat, or nothing when it is missing or cannot be read.
export function statOrNothing(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

// A rename or unlink that another process may have done first.
export function tryQuietly(work: () => void): void {
  try {
    work();
  } catch {
    // Another process got there first; nothing to do.
  }
}
