// The worker's index of pending/ by due time (src/link/PROTOCOL.md, "The due-time index"): built by
// one look at the folder when the worker takes the lock, kept by this process's own writes (the
// store tells it: observePending, outbox/pending-observers.ts), and looked at again, by one listing
// that reads only names it does not know, when another process may have written (a wake on the
// socket, or the folder's mtime moved at a periodic look). A wake, a round and a sleep then cost what is due, not what
// waits: the entries not yet due are neither listed, nor stat'ed, nor read, nor scanned.
import { lstat, stat } from "node:fs/promises";
import type { OutboxPaths } from "../outbox/paths.js";
import type { OutboxEntry } from "../outbox/store.js";
import { observePending } from "../outbox/pending-observers.js";
import { readEntries, type Quarantined } from "../outbox/read-entries.js";
import { createPendingLines, type PendingCounts } from "./pending-lines.js";

export interface PendingIndex {
  /** Another process may have added entries: the next look lists the folder and reads new names. */
  markNew(): void;
  /** Anything may have changed (the worker took the lock again, a flush ran): the next look
   * lists the folder and reads every file whose inode, size or mtime moved. */
  markAll(): void;
  /** Brings the index up to the folder if marked; unreadable files go to corrupt/. */
  refresh(onQuarantine: (item: Quarantined) => void): Promise<void>;
  /** A periodic look: when the folder's mtime moved since the last listing, refresh. */
  refreshIfChanged(onQuarantine: (item: Quarantined) => void): Promise<void>;
  /** The entries due at `now`, oldest first (with `retryWaiting`, also those waiting for a
   * ${VAR}). Costs what is due: a target that is down is skipped whole. */
  due(
    now: number,
    downUntil: ReadonlyMap<string, number>,
    options?: { retryWaiting?: boolean },
  ): OutboxEntry[];
  counts(): PendingCounts;
  /** The earliest time an entry this process can send comes due. */
  nextDueAt(downUntil: ReadonlyMap<string, number>): number | undefined;
  /** Stops observing the store (tests). */
  close(): void;
}

// Builds the index of `paths.pending` and starts observing this process's writes to it.
export function createPendingIndex(paths: OutboxPaths): PendingIndex {
  const lines = createPendingLines();
  let marked: "none" | "new" | "all" = "all";
  let listedMtime: number | undefined;
  const stopObserving = observePending(paths.pending, {
    wrote: (entry) => {
      lines.place(entry);
    },
    removed: (key) => {
      lines.unplace(key);
    },
  });

  // Each file's inode, size and mtime when this process last read it (a look after a flush reads
  // again only what changed).
  const versions = new Map<string, string>();
  async function relist(onQuarantine: (item: Quarantined) => void, all: boolean): Promise<void> {
    const before = lines.generation();
    const info = await stat(paths.pending).catch(() => undefined);
    const entries = await readEntries(paths, paths.pending, onQuarantine, async (name, file) => {
      const hit = lines.get(name.slice(0, -".json".length));
      if (!all) return hit?.entry;
      const version = await fileVersion(file);
      if (hit && version !== undefined && versions.get(name) === version) return hit.entry;
      if (version === undefined) versions.delete(name);
      else versions.set(name, version);
      return undefined;
    });
    const listed = new Set<string>();
    for (const entry of entries) {
      listed.add(entry.key);
      if (lines.get(entry.key)?.entry !== entry) lines.place(entry);
    }
    for (const key of [...lines.keys()])
      if (!listed.has(key) && (lines.get(key)?.generation ?? 0) <= before) {
        lines.unplace(key);
        versions.delete(`${key}.json`);
      }
    listedMtime = info?.mtimeMs;
  }

  return {
    markNew() {
      if (marked === "none") marked = "new";
    },
    markAll() {
      marked = "all";
    },
    async refresh(onQuarantine) {
      if (marked === "none") return;
      const all = marked === "all";
      marked = "none";
      await relist(onQuarantine, all);
    },
    async refreshIfChanged(onQuarantine) {
      const info = await stat(paths.pending).catch(() => undefined);
      if (info?.mtimeMs !== listedMtime && marked === "none") marked = "new";
      await this.refresh(onQuarantine);
    },
    due: (now, downUntil, options = {}) => lines.due(now, downUntil, options.retryWaiting ?? false),
    counts: () => lines.counts(),
    nextDueAt: (downUntil) => lines.nextDueAt(downUntil),
    close: stopObserving,
  };
}

// A file's identity for "did it change": inode, size, mtime.
async function fileVersion(file: string): Promise<string | undefined> {
  const info = await lstat(file).catch(() => undefined);
  return info && `${String(info.ino)}:${String(info.size)}:${String(info.mtimeMs)}`;
}
