// The worker's index of pending/ by due time (src/link/PROTOCOL.md, "The due-time index"): built by
// one look at the folder when the worker takes the lock, kept by this process's own writes (the
// store tells it: observePending), and looked at again, by one listing that reads only names it
// does not know, when another process may have written (a wake on the socket, or the folder's
// mtime moved at a periodic look). A wake, a round and a sleep then cost what is due, not what
// waits: the entries not yet due are neither listed, nor stat'ed, nor read, nor scanned.
import { lstat, stat } from "node:fs/promises";
import type { OutboxPaths } from "../outbox/paths.js";
import { observePending, type OutboxEntry } from "../outbox/store.js";
import { readEntries, type Quarantined } from "../outbox/read-entries.js";
import { targetOf } from "../delivery/steps.js";
import { isWaitingForEnv } from "./drain.js";

/** One entry's place in its target's line: due at `at`, the entry named `key`. */
interface Slot {
  at: number;
  key: string;
}

/** What the index knows of one pending file. */
interface Known {
  entry: OutboxEntry;
  /** The line the entry stands in: its target ("" for those never held by one: escalations,
   * receipts), among the lines of entries waiting for a ${VAR} this process lacks when it does
   * (those are tried when due, but wake nobody: drain.ts isWaitingForEnv). */
  line: string;
  waiting: boolean;
  /** When this process last wrote or read it (a listing forgets only what it knew before). */
  generation: number;
}

/** Entries pending, of those waiting for a ${VAR}, of receipt looks. */
export interface PendingCounts {
  remaining: number;
  waitingForEnv: number;
  watching: number;
}

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

// Escalations and receipt looks keep their own time whatever their target does (drain.ts dueAt).
function lineOf(entry: OutboxEntry): string {
  return entry.watch || entry.escalation ? "" : targetOf(entry);
}

// The first slot not before `at` (binary search; equal times keep their order of arrival).
function slotAfter(slots: readonly Slot[], at: number): number {
  let low = 0;
  let high = slots.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((slots[middle] as Slot).at <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}

// Builds the index of `paths.pending` and starts observing this process's writes to it.
export function createPendingIndex(paths: OutboxPaths): PendingIndex {
  const known = new Map<string, Known>();
  const lines = new Map<string, Slot[]>();
  const waitingLines = new Map<string, Slot[]>();
  const waitingForEnv = new Set<string>();
  const watching = new Set<string>();
  let generation = 0;
  let marked: "none" | "new" | "all" = "all";
  let listedMtime: number | undefined;

  const unplace = (key: string): void => {
    const old = known.get(key);
    if (!old) return;
    known.delete(key);
    waitingForEnv.delete(key);
    watching.delete(key);
    const all = old.waiting ? waitingLines : lines;
    const slots = all.get(old.line);
    if (!slots) return;
    for (let i = slotAfter(slots, old.entry.notBefore) - 1; i >= 0; i--) {
      const slot = slots[i] as Slot;
      if (slot.at < old.entry.notBefore) break;
      if (slot.key === key) {
        slots.splice(i, 1);
        break;
      }
    }
    if (slots.length === 0) all.delete(old.line);
  };
  const place = (entry: OutboxEntry): void => {
    unplace(entry.key);
    const line = lineOf(entry);
    const waiting = isWaitingForEnv(entry);
    known.set(entry.key, { entry, line, waiting, generation: ++generation });
    if (entry.watch) watching.add(entry.key);
    if (waiting) waitingForEnv.add(entry.key);
    const all = waiting ? waitingLines : lines;
    const slots = all.get(line) ?? [];
    all.set(line, slots);
    slots.splice(slotAfter(slots, entry.notBefore), 0, { at: entry.notBefore, key: entry.key });
  };

  const stopObserving = observePending(paths.pending, {
    wrote: place,
    removed: unplace,
  });

  // Each file's inode, size and mtime when this process last read it (a look after a flush reads
  // again only what changed).
  const versions = new Map<string, string>();
  async function relist(onQuarantine: (item: Quarantined) => void, all: boolean): Promise<void> {
    const before = generation;
    const info = await stat(paths.pending).catch(() => undefined);
    const entries = await readEntries(paths, paths.pending, onQuarantine, async (name, file) => {
      const hit = known.get(name.slice(0, -".json".length));
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
      if (known.get(entry.key)?.entry !== entry) place(entry);
    }
    for (const [key, item] of known)
      if (!listed.has(key) && item.generation <= before) {
        unplace(key);
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
    due(now, downUntil, options = {}) {
      const due: OutboxEntry[] = [];
      for (const all of [lines, waitingLines])
        for (const [line, slots] of all) {
          if (line !== "" && (downUntil.get(line) ?? 0) > now) continue;
          for (const slot of slots) {
            if (slot.at > now) break;
            const item = known.get(slot.key);
            if (item) due.push(item.entry);
          }
        }
      if (options.retryWaiting) {
        // Due or not: a new worker may have the ${VAR} (each taken once).
        const taken = new Set(due);
        for (const key of waitingForEnv) {
          const item = known.get(key);
          if (item && !taken.has(item.entry)) due.push(item.entry);
        }
      }
      return due.sort((a, b) => a.createdAt - b.createdAt);
    },
    counts: () => ({
      remaining: known.size,
      waitingForEnv: waitingForEnv.size,
      watching: watching.size,
    }),
    nextDueAt(downUntil) {
      let next: number | undefined;
      for (const [line, slots] of lines) {
        const first = slots[0];
        if (!first) continue;
        const at = line === "" ? first.at : Math.max(first.at, downUntil.get(line) ?? 0);
        if (next === undefined || at < next) next = at;
      }
      return next;
    },
    close: stopObserving,
  };
}

// A file's identity for "did it change": inode, size, mtime.
async function fileVersion(file: string): Promise<string | undefined> {
  const info = await lstat(file).catch(() => undefined);
  return info && `${String(info.ino)}:${String(info.size)}:${String(info.mtimeMs)}`;
}
