// The pending entries the worker knows (pending-index.ts), each in its line by due time: a line is
// a target's entries, oldest due first, so that a target that is down is skipped whole and a look
// at what is due stops at the first entry not yet due (src/link/PROTOCOL.md, "The due-time index").
import type { OutboxEntry } from "../outbox/store.js";
import { targetOf } from "../delivery/steps.js";
import { isWaitingForEnv } from "./drain.js";
import { addSlot, dueKeys, earliest, removeSlot, type DueLines } from "./due-lines.js";

/** What the lines know of one pending file. */
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

export interface PendingLines {
  /** The entry known by `key`, and when it was placed. */
  get(key: string): { entry: OutboxEntry; generation: number } | undefined;
  keys(): IterableIterator<string>;
  /** The generation of the last entry placed. */
  generation(): number;
  /** Puts the entry in its line (again, after a rewrite). */
  place(entry: OutboxEntry): void;
  unplace(key: string): void;
  /** See PendingIndex.due. */
  due(now: number, downUntil: ReadonlyMap<string, number>, retryWaiting: boolean): OutboxEntry[];
  counts(): PendingCounts;
  nextDueAt(downUntil: ReadonlyMap<string, number>): number | undefined;
}

// Escalations and receipt looks keep their own time whatever their target does (drain.ts dueAt).
function lineOf(entry: OutboxEntry): string {
  return entry.watch || entry.escalation ? "" : targetOf(entry);
}

// Empty lines, to place entries in.
export function createPendingLines(): PendingLines {
  const known = new Map<string, Known>();
  const lines: DueLines = new Map();
  const waitingLines: DueLines = new Map();
  const waitingForEnv = new Set<string>();
  const watching = new Set<string>();
  let generation = 0;
  const unplace = (key: string): void => {
    const old = known.get(key);
    if (!old) return;
    known.delete(key);
    waitingForEnv.delete(key);
    watching.delete(key);
    removeSlot(old.waiting ? waitingLines : lines, old.line, { at: old.entry.notBefore, key });
  };
  return {
    get: (key) => known.get(key),
    keys: () => known.keys(),
    generation: () => generation,
    place(entry) {
      unplace(entry.key);
      const line = lineOf(entry);
      const waiting = isWaitingForEnv(entry);
      known.set(entry.key, { entry, line, waiting, generation: ++generation });
      if (entry.watch) watching.add(entry.key);
      if (waiting) waitingForEnv.add(entry.key);
      addSlot(waiting ? waitingLines : lines, line, { at: entry.notBefore, key: entry.key });
    },
    unplace,
    due(now, downUntil, retryWaiting) {
      const keys = new Set([
        ...dueKeys(lines, now, downUntil),
        ...dueKeys(waitingLines, now, downUntil),
      ]);
      // Due or not: a new worker may have the ${VAR} (each taken once).
      if (retryWaiting) for (const key of waitingForEnv) keys.add(key);
      const due = [...keys].flatMap((key) => known.get(key)?.entry ?? []);
      return due.sort((a, b) => a.createdAt - b.createdAt);
    },
    counts: () => ({
      remaining: known.size,
      waitingForEnv: waitingForEnv.size,
      watching: watching.size,
    }),
    nextDueAt: (downUntil) => earliest(lines, downUntil),
  };
}
