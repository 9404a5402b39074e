// What the worker's life (life.ts) knows between its steps: its state, the messages it got, the
// lock, the door and its sleep. One record, so that its steps (life-lock.ts, life-rounds.ts) read
// and set the same flags.
import { createAlarm, type Alarm } from "./alarm.js";
import type { Door, LifeState, WorkerPorts } from "./life.js";

export interface LifeFlags {
  state: LifeState;
  /** A signal: stop at the next step. */
  stopped: boolean;
  /** Asked to yield: leave after the round in flight. */
  yielding: boolean;
  /** Asked to pause for a flush: the flush's pid in `pausedFor`, when it named one. */
  pausing: boolean;
  pausedFor: number | undefined;
  lockLost: boolean;
  /** A knock settled since the last round: the round refreshes the door first. */
  knocked: boolean;
  door: Door | undefined;
  readonly alarm: Alarm;
}

// A life that is starting.
export function createFlags(ports: Pick<WorkerPorts, "timer">): LifeFlags {
  return {
    state: "starting",
    stopped: false,
    yielding: false,
    pausing: false,
    pausedFor: undefined,
    lockLost: false,
    knocked: false,
    door: undefined,
    alarm: createAlarm(ports),
  };
}

// Stopped or asked to yield: no further round, no further hold of the lock. (Functions, so the
// type checker does not take a flag as unchanged across an await.)
export function mustGo(life: LifeFlags): boolean {
  return life.stopped || life.yielding;
}

// No further round: must go, or lets go of the lock for a flush.
export function leaving(life: LifeFlags): boolean {
  return mustGo(life) || life.pausing;
}
