// Where the outbox lives on disk, under the state folder (next to the run log).
import { sep } from "node:path";
import { joinPath } from "../path-join.js";
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
  const root = joinPath(stateDir(deps), "outbox");
  // Each one is the root and a plain name, joined by hand: what join() gives for a normalized
  // root, without its normalizing walk, and written out rather than by a helper called ten times
  // (the hook's fast path computes these on every run, where either costs V8 a compile).
  return {
    root,
    pending: `${root}${sep}pending`,
    held: `${root}${sep}held`,
    digest: `${root}${sep}digest`,
    failed: `${root}${sep}failed`,
    corrupt: `${root}${sep}corrupt`,
    tmp: `${root}${sep}tmp`,
    events: `${root}${sep}events`,
    lock: `${root}${sep}worker.lock`,
    stamp: `${root}${sep}fast.json`,
  };
}
