import { randomUUID } from "node:crypto";
import {
  chmod,
  copyFile,
  lstat,
  mkdir,
  open,
  readlink,
  realpath,
  rename,
  rm,
  stat,
  unlink,
} from "node:fs/promises";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { HookNotifyError } from "../errors.js";

/** One file to put in place: the text expected on disk, and the text (or absence) wanted. */
export interface WriteRequest {
  file: string;
  shown: string;
  next: string | undefined;
  /** File mode for a file we create (the wrapper is 0o755); an existing file keeps its own. */
  mode?: number;
  /** False for files that are only ever our own (the wrapper): no .bak beside them. */
  backup?: boolean;
}

/** What the write did, for the report. */
export interface WriteResult {
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
  await mkdir(dirname(file), { recursive: true });
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

// Temp file + rename, after one .bak of the old file; refuses to touch a read-only file.
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
  const backup = info === undefined || request.backup === false ? undefined : `${target}.bak`;
  try {
    if (backup !== undefined) await copyFile(target, backup);
    if (request.next === undefined) {
      if (info !== undefined) await unlink(target);
      return { backup, removed: true };
    }
    await replace(target, request.next, info?.mode ?? request.mode ?? 0o644);
    return { backup, removed: false };
  } catch (error) {
    throw writeError(request.shown, error);
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

// Writes beside the target and renames over it, so a reader never sees half a file.
async function replace(target: string, text: string, mode: number): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const temp = `${target}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    const handle = await open(temp, "wx", mode & 0o777);
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await chmod(temp, mode & 0o777);
    await rename(temp, target);
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
