// Who is told of this process's writes to a pending folder: the worker's due-time index
// (src/link/PROTOCOL.md, "The due-time index"), kept by the store's own writes (store.ts).
import { resolve } from "node:path";
import type { OutboxEntry } from "./store.js";

/** Told of this process's writes to one pending folder (the worker's due-time index). */
export interface PendingObserver {
  wrote(entry: OutboxEntry): void;
  removed(key: string): void;
}

// By pending folder (resolved: a hook event's run may spell it otherwise): every write and
// removal through store.ts is told, whichever code path (a hook event's run, a retry, a
// fallback, a digest) made it. See worker/pending-index.ts.
const observers = new Map<string, PendingObserver>();

// The observer of `dir`, if any (store.ts tells it after each rename or unlink).
export function observerOf(dir: string): PendingObserver | undefined {
  return observers.size === 0 ? undefined : observers.get(resolve(dir));
}

// Observes `dir` until the returned function is called.
export function observePending(dir: string, observer: PendingObserver): () => void {
  const key = resolve(dir);
  observers.set(key, observer);
  return () => {
    if (observers.get(key) === observer) observers.delete(key);
  };
}
