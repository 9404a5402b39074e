// The doors of workers killed before they could remove them (SIGKILL, a crash, a machine that lost
// power): a wake socket nobody answers on, a FIFO nobody holds open (link/PROTOCOL.md, the
// table of files). The lock holder sweeps them with the day's pruning (worker-main.ts); only a lock
// holder makes a door, so no other live worker's is half made, and its own (its token) is skipped.
import { lstat, readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { fifoHasReader } from "../link/inbox.js";
import { sendWake } from "../link/wake.js";

// The number of doors removed from `root` (the outbox).
export async function sweepDeadDoors(root: string, ownToken: string): Promise<number> {
  const names = await readdir(root).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const door = /^worker\.([0-9a-f]+)\.(sock|fifo)$/.exec(name);
    if (!door || door[1] === ownToken) continue;
    const file = join(root, name);
    const alive = door[2] === "sock" ? await sendWake(file, "wake") : await liveFifo(file);
    if (alive) continue;
    try {
      await unlink(file);
      removed++;
    } catch {
      // gone already
    }
  }
  return removed;
}

// A FIFO that a worker holds open; anything else under a FIFO's name is left alone.
async function liveFifo(file: string): Promise<boolean> {
  const info = await lstat(file).catch(() => undefined);
  return info?.isFIFO() === true ? fifoHasReader(file) : true;
}
