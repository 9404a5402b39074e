// Where the outbox lives on disk, under the state folder (next to the run log).
import { join } from "node:path";
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
  return {
    root,
    pending: join(root, "pending"),
    held: join(root, "held"),
    digest: join(root, "digest"),
    failed: join(root, "failed"),
    corrupt: join(root, "corrupt"),
    tmp: join(root, "tmp"),
    events: join(root, "events"),
    lock: join(root, "worker.lock"),
    stamp: join(root, "fast.json"),
  };
}
