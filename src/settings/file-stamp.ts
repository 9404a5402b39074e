import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { open } from "node:fs/promises";

// No settings file is near this; a larger one (or /dev/zero, a FIFO) named as one is refused.
const MAX_SETTINGS_BYTES = 16 << 20;

/** What a file was when we read it: where it lives, how big, when written, and what it held. */
export interface Stamp {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  sha256: string;
}

/** A file's bytes and its stamp; both undefined when there is no file. */
export interface Stamped {
  bytes: Buffer | undefined;
  stamp: Stamp | undefined;
}

// Reads bytes and metadata through one handle, so the stamp describes exactly the bytes read.
export async function readStamped(file: string): Promise<Stamped> {
  let handle;
  try {
    // O_NONBLOCK: a FIFO in a settings file's place does not hang the open (not on Windows).
    handle = await open(
      file,
      constants.O_RDONLY | ((constants as { O_NONBLOCK?: number }).O_NONBLOCK ?? 0),
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      return { bytes: undefined, stamp: undefined };
    }
    throw error;
  }
  try {
    const info = await handle.stat({ bigint: true });
    if (info.isDirectory()) throw Object.assign(new Error("is a folder"), { code: "EISDIR" });
    if (!info.isFile()) throw Object.assign(new Error("not a regular file"), { code: "ENOTREG" });
    if (info.size > MAX_SETTINGS_BYTES) {
      throw Object.assign(new Error(`larger than ${MAX_SETTINGS_BYTES} bytes`), { code: "EFBIG" });
    }
    const bytes = await handle.readFile();
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const stamp = { dev: info.dev, ino: info.ino, size: info.size, mtimeNs: info.mtimeNs, sha256 };
    return { bytes, stamp };
  } finally {
    await handle.close();
  }
}

// Another program may write the file between our read and our rename (the lock only holds off
// hook-notify): any difference in place, size, time or content means it did.
export function isSameStamp(a: Stamp | undefined, b: Stamp | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.dev === b.dev &&
    a.ino === b.ino &&
    a.size === b.size &&
    a.mtimeNs === b.mtimeNs &&
    a.sha256 === b.sha256
  );
}
