// The worker's life (src/link/PROTOCOL.md, "the worker"), as one object with explicit states and
// everything it touches injected: the lock, the socket, the door (FIFO + stamp), the clock, a
// round of work. worker-main.ts wires the real ones; test/worker/life.test.ts drives fakes.
//
//   starting ─▶ draining ⇄ lingering ─▶ closing ─▶ (work found: starting) | paused | gone
//
// - draining: holding the lock, running events, releasing held groups, sending what is due;
// - lingering: holding the lock with nothing due, asleep until a knock, a wake, the next due time
//   or the end of the idle time;
// - closing: the door is closed, then the lock released and the socket closed, then the last look;
// - paused: stepped aside for a flush (it has the lock), until that flush is over;
// - gone: the process may exit.
import { settleKnocks } from "./knock-settle.js";
import { createFlags, leaving } from "./life-flags.js";
import { holdLock } from "./life-lock.js";

/** What one round of work did. */
export interface Round {
  /** Anything run or sent (or tried): the idle time starts again. */
  worked: boolean;
  /** Work still waiting that this worker can do (not entries that wait for a ${VAR}). */
  waiting: boolean;
  nextDueAt?: number | undefined;
}

/** The offer to hooks: a FIFO and the stamp (link/offer.ts). */
export interface Door {
  refresh(): void;
  close(): void;
}

export interface WorkerPorts {
  now(): number;
  /** Calls `done` after `ms`; the returned function cancels it. */
  timer(ms: number, done: () => void): () => void;
  /** The socket hooks and flush reach the worker by, opened holding the lock after the first
   * round and named in the lock; undefined when none can be had. */
  listen(
    onMessage: (message: "wake" | "yield" | "pause", pid?: number) => boolean,
  ): Promise<{ close(): Promise<void> } | undefined>;
  /** Runs `body` holding the lock; false when another process holds it. */
  withLock(body: () => Promise<void>, onLost: () => void): Promise<boolean>;
  /** Wakes the process that holds the lock (it looks at the outbox again). */
  wakeHolder(): Promise<void>;
  /** With the lock, before the first round: orphans adopted, a dead taker's events back in line. */
  prepare(): Promise<void>;
  /** `onKnock` gets the knocking hooks' process ids (none when a knock named none). */
  openDoor(onKnock: (pids: readonly number[]) => void): Door | undefined;
  /** True once process `pid` has exited (its exit is over: no longer running or tearing down).
   * Without it a knock's settle is always knockSettleMs. */
  exited?(pid: number): boolean;
  /** One round; `door` learns from the events it runs. */
  round(first: boolean, door: Door | undefined): Promise<Round>;
  /** Before a sleep: a look (to repeat while asleep) that is true once an entry came due or a
   * group was held since. */
  lookout(): Promise<() => Promise<boolean>>;
  /** The last look, after the lock is released: work this worker can do. */
  hasWork(): Promise<boolean>;
  /** Until the flush `pid` is over (a pause that names no flush waits for nothing). */
  waitForFlush(pid: number | undefined): Promise<void>;
  /** Events handed over while the door was still open, run before a yielded worker leaves. */
  runLeftEvents(): Promise<void>;
}

export interface LifeOptions {
  idleMs: number;
  /** A knock wakes the drain this long after it at the latest (knocks meanwhile wake it once), or
   * as soon as every hook that knocked has exited (`exited`, looked at every knockPollMs): the
   * knocking hook exits first, without the worker's burst of work (reading the event, starting
   * programs) beside it on a small machine, where that cost the agent ~7% of the hook's time.
   * 0: at once. */
  knockSettleMs?: number;
  knockPollMs?: number;
  /** With a socket, a sleeping worker still looks this often; without one, `pollMs`. */
  recheckMs: number;
  pollMs: number;
}

export type LifeState = "starting" | "draining" | "lingering" | "closing" | "paused" | "gone";

export interface WorkerLife {
  run(): Promise<void>;
  state(): LifeState;
  /** Stops at the next step (a signal). */
  stop(): void;
}

// Builds the worker's life; `run` resolves when it is gone. Its steps: one hold of the lock
// (life-lock.ts) and the rounds in it (life-rounds.ts), over one record (life-flags.ts).
export function createWorkerLife(ports: WorkerPorts, options: LifeOptions): WorkerLife {
  const life = createFlags(ports);
  const onKnock = settleKnocks(ports, options, () => {
    life.knocked = true;
    life.alarm.wake();
  });
  // True ("ok"): a look at the outbox comes after this message.
  const onMessage = (message: "wake" | "yield" | "pause", pid?: number): boolean => {
    if (message === "yield") life.yielding = true;
    if (message === "pause") {
      life.pausing = true;
      life.pausedFor = pid;
    }
    life.alarm.wake();
    return !leaving(life) && life.state !== "closing";
  };
  return {
    async run() {
      while ((await holdLock(life, ports, options, { onMessage, onKnock })) === "again")
        life.lockLost = false;
      if (life.yielding) await ports.runLeftEvents();
      life.state = "gone";
    },
    state: () => life.state,
    stop() {
      life.stopped = true;
      life.alarm.wake();
    },
  };
}
