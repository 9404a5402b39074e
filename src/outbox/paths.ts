// Where the outbox lives on disk, under the state folder (next to the run log).
import { join } from "node:path";
import { stateDir } from "../config/paths.js";
import type { Deps } from "../deps.js";

/** The outbox folders: pending/ (to deliver), held/ (subagent coalescing), failed/, corrupt/
 * (quarantine), tmp/, and the lock. */
export interface OutboxPaths {
  root: string;
  pending: string;
  held: string;
  failed: string;
  corrupt: string;
  tmp: string;
  lock: string;
}

// $XDG_STATE_HOME/hook-notify/outbox/… (or the platform's equivalent, see config/paths.ts).
export function outboxPaths(deps: Pick<Deps, "env" | "homedir" | "platform">): OutboxPaths {
  const root = join(stateDir(deps), "outbox");
  return {
    root,
    pending: join(root, "pending"),
    held: join(root, "held"),
    failed: join(root, "failed"),
    corrupt: join(root, "corrupt"),
    tmp: join(root, "tmp"),
    lock: join(root, "worker.lock"),
  };
}
