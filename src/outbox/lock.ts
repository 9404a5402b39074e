// One draining worker at a time: a lock file holding the owner's pid and a token, created whole
// (written to a temp file, then hard-linked into place, which fails if the lock exists).
// A lock whose owner is dead, or whose heartbeat (mtime) is older than STALE_MS, is taken over.
import { link, readFile, rename, stat, unlink, utimes, writeFile } from "node:fs/promises";

/** Who asks for the lock; `isAlive` is injected so this module stays free of `process`. */
export interface LockOwner {
  pid: number;
  isAlive: (pid: number) => boolean;
  now: () => number;
}

/** A held lock: refresh it (heartbeat) at least every STALE_MS / 3, release it when done. */
export interface HeldLock {
  refresh(): Promise<void>;
  release(): Promise<void>;
}

// The worker takes the lock, not the hook: node:crypto is fetched here so the hook never loads it.
const randomHex = (bytes: number): string =>
  process.getBuiltinModule("node:crypto").randomBytes(bytes).toString("hex");

// Past this, a lock without a heartbeat is stale even if its pid looks alive (pid reuse).
export const STALE_MS = 60_000;

// The lock, or undefined when a live worker holds it (the caller exits or waits politely).
export async function acquireLock(path: string, owner: LockOwner): Promise<HeldLock | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const token = randomHex(8);
    // Never an empty lock file: a worker killed between creating and writing one would leave
    // a lock that looks freshly taken, and every worker for the next seconds would stand aside.
    const temp = `${path}.${token}.tmp`;
    try {
      await writeFile(temp, JSON.stringify({ pid: owner.pid, token, startedAt: owner.now() }), {
        mode: 0o600,
        flag: "wx",
      });
      await link(temp, path);
      return heldLock(path, token, owner);
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
    } finally {
      await unlink(temp).catch(() => undefined);
    }
    if (!(await isStale(path, owner))) return undefined;
    // Rename first: of two workers taking over the same stale lock, only one rename succeeds.
    const aside = `${path}.stale-${randomHex(4)}`;
    const moved = await rename(path, aside).then(
      () => true,
      () => false,
    );
    if (moved) await unlink(aside).catch(() => undefined);
  }
  return undefined;
}

// The pid in a live lock file, or undefined: lets the hook skip spawning a second worker.
export async function lockHolder(path: string, owner: LockOwner): Promise<number | undefined> {
  if (await isStale(path, owner)) return undefined;
  return (await readLock(path))?.pid;
}

async function isStale(path: string, owner: LockOwner): Promise<boolean> {
  const [info, content] = await Promise.all([stat(path).catch(() => undefined), readLock(path)]);
  if (!info) return true;
  const age = owner.now() - info.mtimeMs;
  if (age > STALE_MS) return true;
  // Empty or half-written: its owner is writing it right now, or died doing so.
  if (!content) return age > 5_000;
  return !owner.isAlive(content.pid);
}

async function readLock(path: string): Promise<{ pid: number; token: string } | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, "utf8")) as { pid?: unknown; token?: unknown };
    return typeof parsed.pid === "number" && typeof parsed.token === "string"
      ? { pid: parsed.pid, token: parsed.token }
      : undefined;
  } catch {
    return undefined;
  }
}

function heldLock(path: string, token: string, owner: LockOwner): HeldLock {
  const isMine = async () => (await readLock(path))?.token === token;
  return {
    refresh: async () => {
      const time = new Date(owner.now());
      if (await isMine()) await utimes(path, time, time).catch(() => undefined);
    },
    // Only our own lock is removed, never a successor's that took over a stale one.
    release: async () => {
      if (await isMine()) await unlink(path).catch(() => undefined);
    },
  };
}
