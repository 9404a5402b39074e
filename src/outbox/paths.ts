// Where the outbox lives on disk, under the state folder (next to the run log).
import { join, sep } from "node:path";
import { stateDir } from "../config/paths.js";
import type { Deps } from "../deps.js";

/** The outbox folders: pending/ (to deliver), held/ (subagent coalescing), digest/ (held while
 * away, one folder per sink, see digest.ts), failed/, corrupt/
 * (quarantine), tmp/, events/ (whole hook events a live worker runs, see inbox.ts), the lock and
 * the live worker's offer to take events (fast.json, see link/stamp.ts). */
export interface OutboxPaths {
  root: string;
  pending: string;
  held: string;
  digest: string;
  failed: string;
  corrupt: string;
  tmp: string;
  events: string;
  lock: string;
  stamp: string;
}

// $XDG_STATE_HOME/hook-notify/outbox/… (or the platform's equivalent, see config/paths.ts).
export function outboxPaths(deps: Pick<Deps, "env" | "homedir" | "platform">): OutboxPaths {
  const root = join(stateDir(deps), "outbox");
  // Each one is the root and a plain name, joined by hand: what join() gives for a normalized
  // root, without its normalizing walk (the hook's fast path computes these on every run, where
  // nine join() calls cost ~0.6 M instructions in V8's interpreter).
  const under = (name: string): string => `${root}${sep}${name}`;
  return {
    root,
    pending: under("pending"),
    held: under("held"),
    digest: under("digest"),
    failed: under("failed"),
    corrupt: under("corrupt"),
    tmp: under("tmp"),
    events: under("events"),
    lock: under("worker.lock"),
    stamp: under("fast.json"),
  };
}
