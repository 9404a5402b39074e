// The worker's sleep and what ends it: a wake (a message on the socket, a settled knock, a stop),
// which the drain sees after it, or an interruption (a lost lock), which is no wake.
import type { WorkerPorts } from "./life.js";

export interface Alarm {
  /** Until `ms` passed (at least 1), a wake or an interruption. */
  sleep(ms: number): Promise<void>;
  wake(): void;
  interrupt(): void;
  /** A wake came since the last `reset`. */
  woken(): boolean;
  /** A round begins: the wakes before it are answered by it. */
  reset(): void;
}

// An alarm on the worker's timer.
export function createAlarm(ports: Pick<WorkerPorts, "timer">): Alarm {
  let woken = false;
  let wakeUp: (() => void) | undefined;
  return {
    sleep: (ms) =>
      new Promise((resolve) => {
        const done = (): void => {
          cancel();
          wakeUp = undefined;
          resolve();
        };
        const cancel = ports.timer(Math.max(1, ms), done);
        wakeUp = done;
      }),
    wake() {
      woken = true;
      wakeUp?.();
    },
    interrupt() {
      wakeUp?.();
    },
    woken: () => woken,
    reset() {
      woken = false;
    },
  };
}
