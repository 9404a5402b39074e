// One draining worker at a time: a lock file holding the owner's pid and a token, created whole
// (written to a temp file, then hard-linked into place, which fails if the lock exists).
// A lock whose owner is dead, or whose heartbeat (mtime) is older than STALE_MS, is taken over.
// "Dead" is decided by the owner's wake socket when the lock names one (see wake.ts): nobody
// listening means dead, even when the pid is a zombie or was reused. Without a socket, by pid.
import { linkSync, unlinkSync, writeFileSync } from "node:fs";
import { link, rename, stat, unlink, utimes } from "node:fs/promises";
import { readBounded } from "../read-bounded.js";
import { STALE_MS } from "../core/defaults.js";
import { HEARTBEAT_MS } from "./rhythm.js";

/** Who asks for the lock; `isAlive` is injected so this module stays free of `process`. */
export interface LockOwner {
  pid: number;
  isAlive: (pid: number) => boolean;
  now: () => number;
  /** The socket this owner listens on while it holds the lock, written into the lock file. */
  socket?: string | undefined;
  /** True when a worker listens on that socket (and wakes it to look at the outbox). */
  probe?: ((socket: string) => Promise<boolean>) | undefined;
}

interface LockContent {
  pid: number;
  token: string;
  socket?: string | undefined;
}

/** A held lock: refresh it (heartbeat) at least every STALE_MS / 3, release it when done. */
export interface HeldLock {
  /** False when the lock is no longer ours (removed with its folder, or taken over as stale). */
  refresh(): Promise<boolean>;
  release(): Promise<void>;
  /** Names the socket its holder now listens on (a cold worker listens after its first round):
   * the lock is written again whole (a temp file renamed over it); false when it is not ours. */
  nameSocket(socket: string): Promise<boolean>;
}

let tokens = 0;
/** 16 hex digits no other live process makes (its pid leads), different at every call: names of
 * files and sockets, never secrets. Without node:crypto, whose loading (~4 ms on Node 20) a cold
 * worker paid before its first banner (issue #41). */
export function uniqueToken(): string {
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, "0");
  // A count below (65,536 tokens before one repeats; a worker makes a few), chance and the clock
  // above (a later process given the same pid).
  const above = (Math.random() * 0x10000) ^ (Date.now() & 0xffff);
  return hex(process.pid) + hex((above << 16) | (tokens++ & 0xffff));
}

// The lock, or undefined when a live worker holds it (the caller exits or waits politely).
export async function acquireLock(path: string, owner: LockOwner): Promise<HeldLock | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const token = uniqueToken();
    // Never an empty lock file: a worker killed between creating and writing one would leave
    // a lock that looks freshly taken, and every worker for the next seconds would stand aside.
    // Synchronous: three calls on a small file, where fs/promises (loaded for them alone) and
    // three trips through libuv's thread pool came before a cold worker's first banner (#41).
    const temp = `${path}.${token}.tmp`;
    try {
      const content = { pid: owner.pid, token, startedAt: owner.now(), socket: owner.socket };
      writeFileSync(temp, JSON.stringify(content), { mode: 0o600, flag: "wx" });
      linkSync(temp, path);
      return heldLock(path, content, owner);
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
    } finally {
      removeQuietly(temp);
    }
    const stale = await staleLock(path, owner);
    if (!stale) return undefined;
    // Rename first: of two workers taking over the same stale lock, only one rename succeeds.
    const aside = `${path}.stale-${uniqueToken()}`;
    const moved = await rename(path, aside).then(
      () => true,
      () => false,
    );
    if (!moved) continue;
    // Another taker replaced the stale lock with its own meanwhile: put that one back.
    if (stale !== "unreadable" && (await readLock(aside))?.token !== stale.token) {
      await link(aside, path).catch(() => undefined);
    }
    await unlink(aside).catch(() => undefined);
  }
  return undefined;
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // not there (it was never made): nothing to remove
  }
}

// The pid in a live lock file, or undefined: lets the hook skip spawning a second worker. With a
// socket in the lock, asking is also the hook's wake-up call to the worker.
export async function lockHolder(path: string, owner: LockOwner): Promise<number | undefined> {
  if ((await staleLock(path, owner)) !== false) return undefined;
  return (await readLock(path))?.pid;
}

// False for a live lock; else what was found (its content, or "unreadable"), to take it over.
async function staleLock(
  path: string,
  owner: LockOwner,
): Promise<false | LockContent | "unreadable"> {
  const [info, content] = await Promise.all([stat(path).catch(() => undefined), readLock(path)]);
  if (!info) return "unreadable";
  const age = owner.now() - info.mtimeMs;
  if (!content) return age > 5_000 ? "unreadable" : false; // being written, or died doing so
  if (age > STALE_MS) return content;
  if (content.socket && owner.probe) return (await owner.probe(content.socket)) ? false : content;
  return owner.isAlive(content.pid) ? false : content;
}

// The wake socket named in the lock, if any: `flush` asks the holder to yield through it.
export async function lockSocket(path: string): Promise<string | undefined> {
  return (await readLock(path))?.socket;
}

async function readLock(path: string): Promise<LockContent | undefined> {
  try {
    const text = await readBounded(path, { maxBytes: 4096, noFollow: true });
    const parsed = JSON.parse(text) as { pid?: unknown; token?: unknown; socket?: unknown };
    if (typeof parsed.pid !== "number" || typeof parsed.token !== "string") return undefined;
    const socket = typeof parsed.socket === "string" ? parsed.socket : undefined;
    return { pid: parsed.pid, token: parsed.token, socket };
  } catch {
    return undefined;
  }
}

function heldLock(path: string, content: LockContent, owner: LockOwner): HeldLock {
  const { token } = content;
  const isMine = async () => (await readLock(path))?.token === token;
  return {
    // Between the look and the rename no other process takes it: only a stale lock is taken over,
    // and this one's holder is alive and keeps its heartbeat.
    nameSocket: async (socket) => {
      if (!(await isMine())) return false;
      const temp = `${path}.${token}.tmp`;
      try {
        writeFileSync(temp, JSON.stringify({ ...content, socket }), { mode: 0o600, flag: "wx" });
        await rename(temp, path);
        return true;
      } catch {
        removeQuietly(temp);
        return false;
      }
    },
    refresh: async () => {
      const time = new Date(owner.now());
      if (!(await isMine())) return false;
      await utimes(path, time, time).catch(() => undefined);
      return true;
    },
    // Only our own lock is removed, never a successor's that took over a stale one.
    release: async () => {
      if (await isMine()) await unlink(path).catch(() => undefined);
    },
  };
}

// Runs `work` holding the lock, its heartbeat going so it never looks stale, and releases it;
// undefined (and no work) when another process holds it. The worker and flush drain this way.
// `onLost` hears of a heartbeat that found the lock no longer ours (its folder removed, taken over).
export async function whileLocked<T>(
  path: string,
  owner: LockOwner,
  work: (lock: HeldLock) => Promise<T>,
  onLost?: () => void,
): Promise<{ value: T } | undefined> {
  const lock = await acquireLock(path, owner);
  if (!lock) return undefined;
  const heartbeat = setInterval(() => {
    void lock.refresh().then((mine) => {
      if (!mine) onLost?.();
    });
  }, HEARTBEAT_MS);
  try {
    return { value: await work(lock) };
  } finally {
    clearInterval(heartbeat);
    await lock.release();
  }
}
