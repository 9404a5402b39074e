// A knock wakes the drain as soon as every hook that knocked has exited, or `knockSettleMs` after
// the first knock at the latest (src/link/PROTOCOL.md, "The worker", 3): the knocking hook exits
// first, without the worker's burst of work beside it. Knocks meanwhile wake it once; a knock that
// names no process waits the whole settle.
import type { LifeOptions, WorkerPorts } from "./life.js";

// The door's knock handler: `settled` runs once per settle (at once when there is none).
export function settleKnocks(
  ports: Pick<WorkerPorts, "timer" | "exited">,
  options: Pick<LifeOptions, "knockSettleMs" | "knockPollMs">,
  settled: () => void,
): (pids?: readonly number[]) => void {
  const settleMs = options.knockSettleMs ?? 0;
  const pollMs = options.knockPollMs ?? 2;
  // The hooks of the settle under way; undefined once a knock named none (only the time is left).
  let knockers: Set<number> | undefined = new Set();
  let settling = false;
  let settleRound = 0;
  return (pids = []) => {
    if (settleMs <= 0) {
      settled();
      return;
    }
    if (pids.length === 0) knockers = undefined;
    for (const pid of pids) knockers?.add(pid);
    if (settling) return;
    settling = true;
    const round = ++settleRound;
    const settle = (): void => {
      if (!settling || round !== settleRound) return;
      settling = false;
      knockers = new Set();
      settled();
    };
    ports.timer(settleMs, settle);
    const exited = ports.exited?.bind(ports);
    if (!exited) return;
    const look = (): void => {
      if (!settling || round !== settleRound || knockers === undefined) return;
      if ([...knockers].every((pid) => exited(pid))) settle();
      else ports.timer(pollMs, look);
    };
    ports.timer(pollMs, look);
  };
}
