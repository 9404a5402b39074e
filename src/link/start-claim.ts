// One worker start at a time (PROTOCOL.md, "a hook", step 3; issue #41's storm): a hook whose
// knock finds no reader starts a worker, and 200 first hooks at once on two busy cores would
// start 200 workers that each load their bundle to find the lock taken, taking the CPU the later
// hooks need to make their events durable before the client kills them. The claim
// `outbox/worker.starting` says "a worker is being started and has not looked yet":
// - a hook creates it (exclusively) holding `a<its pid>`, spawns, then adds `w<the worker's pid>`;
// - a worker removes it first thing, before it takes the lock or looks at anything;
// - a hook whose event is durable and whose knock found no reader does not start a worker while
//   the claim's last pid lives: that hook will start one, or that worker has yet to look, and
//   either look comes after this hook's event was written. A claim whose pid is dead (a hook killed
//   before its spawn, a worker that died before its look) is taken over.
// Removing it is always safe (a hook then starts a worker of its own, which at worst finds the
// lock taken and leaves); only a claim kept by something that will not look would lose an event,
// and none is: the pid that keeps it is the one that will start or look.
import { closeSync, constants, openSync, unlinkSync, writevSync } from "node:fs";
import { sep } from "node:path";
import type { OutboxPaths } from "../outbox/paths.js";
import { readBoundedSync } from "../read-bounded.js";
import { processAlive } from "../process-alive.js";

export const startClaimFile = (paths: Pick<OutboxPaths, "root">): string =>
  `${paths.root}${sep}worker.starting`;

/** A claim taken: say which worker was started (undefined: none could be). */
export interface StartClaim {
  started(pid: number | undefined): void;
}

// True while the claim's last pid lives: a worker is on its way and will look after this.
export function startPending(file: string): boolean {
  let text: string;
  try {
    text = readBoundedSync(file, { maxBytes: 256, noFollow: true });
  } catch {
    return false;
  }
  const pid = /[aw](\d{1,10})\n?$/.exec(text)?.[1];
  return pid !== undefined && processAlive(Number(pid));
}

// Takes the claim (a stale one is replaced); undefined when another process holds a live one or
// the folder refuses (the caller then starts its worker all the same).
export function claimStart(file: string): StartClaim | undefined {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;
  let fd: number | undefined;
  for (let attempt = 0; attempt < 2 && fd === undefined; attempt++) {
    try {
      fd = openSync(file, flags, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || startPending(file))
        return undefined;
      removeClaim(file);
    }
  }
  if (fd === undefined) return undefined;
  const held = fd;
  const say = (line: string) => {
    try {
      writevSync(held, [Buffer.from(line)]);
    } catch {
      // a full disk: the claim names the hook, which is alive until it exits
    }
  };
  say(`a${String(process.pid)}\n`);
  return {
    started(pid) {
      // Written to the file as it was claimed: a worker that removed it already is not brought back.
      if (pid !== undefined) say(`w${String(pid)}\n`);
      closeSync(held);
      if (pid === undefined) removeClaim(file);
    },
  };
}

// The worker's first step, and the way past a dead claim.
export function removeClaim(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
}
