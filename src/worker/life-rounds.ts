// The worker's rounds while it holds the lock (src/link/PROTOCOL.md, "The worker", 3): a round,
// then asleep until the next due time, a knock, a wake, or a look that finds work; with nothing
// due it lingers (state "lingering") for the idle time, but only with a socket hooks can reach.
import type { LifeOptions, WorkerPorts } from "./life.js";
import { leaving, type LifeFlags } from "./life-flags.js";

// Returns when the life is leaving, the lock is lost, or nothing waits and the idle time is over.
// `listen` opens the socket beside the first round (worker-main.ts: once its events ran, their
// banners shown; true: hooks can reach this worker now); a round follows the first at once for
// what came while there was none (a hook that found no socket to wake it by).
export async function drainRounds(
  life: LifeFlags,
  ports: WorkerPorts,
  options: LifeOptions,
  listen: () => Promise<boolean>,
): Promise<void> {
  let idleSince = ports.now();
  let hasSocket = false;
  const listening = listen();
  for (let first = true; !leaving(life); first = false) {
    life.state = "draining";
    life.alarm.reset();
    if (life.knocked) {
      life.knocked = false;
      life.door?.refresh();
    }
    const round = await ports.round(first, life.door);
    if (round.worked || round.waiting) idleSince = ports.now();
    if (first && (hasSocket = await listening) && !life.lockLost) continue;
    const idleUntil = idleSince + options.idleMs;
    // Lingering needs the socket: without one no hook can reach this worker.
    const stay = hasSocket && !life.lockLost && ports.now() < idleUntil;
    if (life.lockLost || (!round.waiting && !stay)) return;
    life.state = round.waiting ? "draining" : "lingering";
    // Work that waits (a retry, a group, a digest) sets the wake-up: the idle time only ends a
    // linger, and a short one must not turn the wait into a busy loop.
    const dueAt = round.waiting ? (round.nextDueAt ?? idleUntil) : idleUntil;
    await sleepUntil(life, ports, dueAt, hasSocket ? options.recheckMs : options.pollMs);
  }
}

// Asleep until a wake, the due time, a lost lock, or a look (every `pollMs`) that finds work.
async function sleepUntil(
  life: LifeFlags,
  ports: Pick<WorkerPorts, "now" | "lookout">,
  dueAt: number,
  pollMs: number,
): Promise<void> {
  const look = await ports.lookout();
  while (!life.stopped && !life.alarm.woken()) {
    await life.alarm.sleep(Math.min(pollMs, dueAt - ports.now()));
    if (life.alarm.woken() || life.lockLost || ports.now() >= dueAt) return;
    if (await look()) return;
  }
}
