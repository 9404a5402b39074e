// One hold of the lock (src/link/PROTOCOL.md, "The worker", 1 to 4): take the lock (or wake its
// holder and go), prepare, open the door, the rounds (life-rounds.ts), the socket after the first;
// then leave in the order the protocol rests on: the door (before the lock is released), the
// socket, then the last look, or a pause for a flush.
import type { LifeOptions, WorkerPorts } from "./life.js";
import { mustGo, type LifeFlags } from "./life-flags.js";
import { drainRounds } from "./life-rounds.js";

/** What the socket and the door call. */
export interface LifeHandlers {
  onMessage: Parameters<WorkerPorts["listen"]>[0];
  onKnock: Parameters<WorkerPorts["openDoor"]>[0];
}

// "again": take the lock again (the last look found work, or the flush it paused for is over).
export async function holdLock(
  life: LifeFlags,
  ports: WorkerPorts,
  options: LifeOptions,
  handlers: LifeHandlers,
): Promise<"again" | "gone"> {
  life.state = "starting";
  // The socket is opened after the first round, holding the lock (PROTOCOL.md, "The worker", 3):
  // listening loads node's cluster and child_process, which a cold worker's first banner need not
  // wait for; a worker that does not get the lock never listens.
  let server: { close(): Promise<void> } | undefined;
  let locked: boolean;
  try {
    locked = await ports.withLock(
      async () => {
        await ports.prepare();
        life.door ??= ports.openDoor(handlers.onKnock);
        try {
          await drainRounds(life, ports, options, async () => {
            server = await ports.listen(handlers.onMessage);
            return server !== undefined;
          });
        } finally {
          closeDoor(life);
        }
      },
      () => {
        life.lockLost = true;
        life.alarm.interrupt();
      },
    );
  } finally {
    closeDoor(life);
    await server?.close();
  }
  if (!locked) {
    await ports.wakeHolder();
    return "gone";
  }
  return afterRelease(life, ports);
}

// The lock and the socket are let go: wait out a flush, leave, or take the last look.
async function afterRelease(life: LifeFlags, ports: WorkerPorts): Promise<"again" | "gone"> {
  if (life.pausing && !mustGo(life)) {
    life.state = "paused";
    life.pausing = false;
    const flush = life.pausedFor;
    life.pausedFor = undefined;
    await ports.waitForFlush(flush);
    return mustGo(life) ? "gone" : "again";
  }
  if (mustGo(life)) return "gone";
  return (await ports.hasWork()) ? "again" : "gone";
}

// Closing starts with the door: no knock gets through after it.
function closeDoor(life: LifeFlags): void {
  life.state = "closing";
  life.door?.close();
  life.door = undefined;
}
