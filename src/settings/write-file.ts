import { randomUUID } from "node:crypto";
import { lstat, open, readlink, realpath, rename, rm, stat, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { HookNotifyError } from "../errors.js";
import { applyOwnership, makeFolder, ownershipFor, type Ownership } from "./write-owner.js";
import { isSameStamp, readStamped, type Stamp } from "./file-stamp.js";

/** One file to put in place: the text expected on disk, and the text (or absence) wanted. */
export interface WriteRequest {
  file: string;
  shown: string;
  next: string | undefined;
  /** The file as it was read and planned from (undefined: there was none); checked before the rename. */
  expected: Stamp | undefined;
  /** The bytes that were read: what the .bak holds. Undefined: no .bak this time. */
  previous?: Buffer | undefined;
  /** File mode for a file we create (the wrapper is 0o755); an existing file keeps its own. */
  mode?: number;
}

/** What the write did, for the report; "changed": another program wrote the file meanwhile. */
export interface WriteResult {
  status: "written" | "changed";
  backup: string | undefined;
  removed: boolean;
}

const LOCK_WAIT_MS = 5000;
const LOCK_STALE_MS = 15_000;

// Serialises installs of the same file: an O_EXCL lock file beside it, waited for, stale ones broken.
export async function withFileLock<T>(
  file: string,
  shown: string,
  work: () => Promise<T>,
): Promise<T> {
  await makeFolder(dirname(file));
  const lock = `${file}.hook-notify.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await (await open(lock, "wx")).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw writeError(shown, error);
      if (await isStale(lock)) await rm(lock, { force: true });
      else if (Date.now() > deadline) throw lockedError(shown, lock);
      else await sleep(20 + Math.random() * 30);
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}

async function isStale(lock: string): Promise<boolean> {
  const info = await stat(lock).catch(() => undefined);
  return info !== undefined && Date.now() - info.mtimeMs > LOCK_STALE_MS;
}

// Temp file + rename, after one .bak of the old file; refuses to touch a read-only file. The file
// keeps its owner and mode (a new one takes its folder's owner), and if it is no longer what was
// read, nothing is replaced and the caller plans again from the new text.
export async function writeAtomic(request: WriteRequest): Promise<WriteResult> {
  const target = await realpath(request.file).catch(() => request.file);
  await refuseDanglingLink(request.file, target, request.shown);
  const info = await stat(target).catch(() => undefined);
  if (info !== undefined && (info.mode & 0o222) === 0) {
    throw new HookNotifyError(
      "SETTINGS_WRITE",
      `${request.shown}: the file is read-only, so nothing was written. Make it writable (chmod u+w), then run again.`,
    );
  }
  const backup = info === undefined || request.previous === undefined ? undefined : `${target}.bak`;
  let temp: string | undefined;
  try {
    await makeFolder(dirname(target));
    const owner = await ownershipFor(info, dirname(target), request.mode ?? 0o644);
    if (request.next !== undefined) temp = await writeTemp(target, request.next, owner);
    if (backup !== undefined && request.previous !== undefined) {
      await rename(await writeTemp(backup, request.previous, owner), backup);
    }
    if (!isSameStamp((await readStamped(request.file)).stamp, request.expected)) {
      return { status: "changed", backup: undefined, removed: false };
    }
    if (temp === undefined) {
      if (info !== undefined) await unlink(target);
      return { status: "written", backup, removed: true };
    }
    await rename(temp, target);
    temp = undefined;
    return { status: "written", backup, removed: false };
  } catch (error) {
    throw writeError(request.shown, error);
  } finally {
    if (temp !== undefined) await rm(temp, { force: true });
  }
}

// A symlink whose target is missing: writing beside it would replace the link with a plain file,
// and following it would create files wherever it points. Neither is ours to decide.
async function refuseDanglingLink(file: string, target: string, shown: string): Promise<void> {
  if (target !== file) return;
  const info = await lstat(file).catch(() => undefined);
  if (info?.isSymbolicLink() !== true) return;
  const points = await readlink(file).catch(() => "?");
  throw new HookNotifyError(
    "SETTINGS_WRITE",
    `${shown}: a symlink to ${points}, which does not exist, so nothing was written. Create that file (or remove the link), then run again.`,
  );
}

// Writes a new file beside the target, owned and moded as the target will be, for a rename.
async function writeTemp(
  target: string,
  content: string | Buffer,
  owner: Ownership,
): Promise<string> {
  const temp = `${target}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    const handle = await open(temp, "wx", owner.mode);
    try {
      await applyOwnership(handle, owner);
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return temp;
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

function writeError(shown: string, error: unknown): HookNotifyError {
  if (error instanceof HookNotifyError) return error;
  const reason = (error as Error).message;
  return new HookNotifyError(
    "SETTINGS_WRITE",
    `${shown}: could not write (${reason}). The original is unchanged; check the folder's permissions, then run again.`,
    { cause: error },
  );
}

function lockedError(shown: string, lock: string): HookNotifyError {
  return new HookNotifyError(
    "SETTINGS_WRITE",
    `${shown}: another "hook-notify install" is changing this file (lock ${lock}). Wait for it, or delete the lock if none is running, then run again.`,
  );
}
