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
  /** The socket hooks and flush reach the worker by; undefined when none can be had. */
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

// Builds the worker's life; `run` resolves when it is gone.
export function createWorkerLife(ports: WorkerPorts, options: LifeOptions): WorkerLife {
  let state: LifeState = "starting";
  let stopped = false;
  let yielding = false;
  let pausing = false;
  let pausedFor: number | undefined;
  let lockLost = false;
  let knocked = false;
  let knockSettling = false;
  let woken = false;
  let wakeUp: (() => void) | undefined;
  let door: Door | undefined;

  const closeDoor = (): void => {
    door?.close();
    door = undefined;
  };
  const wake = (): void => {
    woken = true;
    wakeUp?.();
  };
  // The hooks of the settle under way; undefined once a knock named none (only the time is left).
  let knockers: Set<number> | undefined = new Set();
  let settleRound = 0;
  const onKnock = (pids: readonly number[] = []): void => {
    const settleMs = options.knockSettleMs ?? 0;
    if (settleMs <= 0) {
      knocked = true;
      wake();
      return;
    }
    if (pids.length === 0) knockers = undefined;
    for (const pid of pids) knockers?.add(pid);
    if (knockSettling) return;
    knockSettling = true;
    const round = ++settleRound;
    const settle = (): void => {
      if (!knockSettling || round !== settleRound) return;
      knockSettling = false;
      knockers = new Set();
      knocked = true;
      wake();
    };
    ports.timer(settleMs, settle);
    const exited = ports.exited?.bind(ports);
    const pollMs = options.knockPollMs ?? 2;
    if (!exited) return;
    const look = (): void => {
      if (!knockSettling || round !== settleRound || knockers === undefined) return;
      if ([...knockers].every((pid) => exited(pid))) settle();
      else ports.timer(pollMs, look);
    };
    ports.timer(pollMs, look);
  };
  // Functions, so the type checker does not take a flag as unchanged across an await.
  const isWoken = (): boolean => woken;
  const mustGo = (): boolean => stopped || yielding;
  const leaving = (): boolean => mustGo() || pausing;

  // True ("ok"): a look at the outbox comes after this message.
  const onMessage = (message: "wake" | "yield" | "pause", pid?: number): boolean => {
    if (message === "yield") yielding = true;
    if (message === "pause") {
      pausing = true;
      pausedFor = pid;
    }
    wake();
    return !leaving() && state !== "closing";
  };

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        cancel();
        wakeUp = undefined;
        resolve();
      };
      const cancel = ports.timer(Math.max(1, ms), done);
      wakeUp = done;
    });

  // Asleep until a wake, the due time, a lost lock, or a look that finds work.
  async function sleepUntil(dueAt: number, pollMs: number): Promise<void> {
    const look = await ports.lookout();
    while (!stopped && !isWoken()) {
      await sleep(Math.min(pollMs, dueAt - ports.now()));
      if (isWoken() || lockLost || ports.now() >= dueAt) return;
      if (await look()) return;
    }
  }

  async function drainLoop(hasSocket: boolean): Promise<void> {
    let idleSince = ports.now();
    for (let first = true; !leaving(); first = false) {
      state = "draining";
      woken = false;
      if (knocked) {
        knocked = false;
        door?.refresh();
      }
      const round = await ports.round(first, door);
      if (round.worked || round.waiting) idleSince = ports.now();
      const idleUntil = idleSince + options.idleMs;
      // Lingering needs the socket: without one no hook can reach this worker.
      const stay = hasSocket && !lockLost && ports.now() < idleUntil;
      if (lockLost || (!round.waiting && !stay)) return;
      state = round.waiting ? "draining" : "lingering";
      // Work that waits (a retry, a group, a digest) sets the wake-up: the idle time only ends a
      // linger, and a short one must not turn the wait into a busy loop.
      const dueAt = round.waiting ? (round.nextDueAt ?? idleUntil) : idleUntil;
      await sleepUntil(dueAt, hasSocket ? options.recheckMs : options.pollMs);
    }
  }

  async function once(): Promise<"again" | "gone"> {
    state = "starting";
    const server = await ports.listen(onMessage);
    let locked: boolean;
    try {
      locked = await ports.withLock(
        async () => {
          await ports.prepare();
          door ??= ports.openDoor(onKnock);
          try {
            await drainLoop(server !== undefined);
          } finally {
            state = "closing";
            closeDoor();
          }
        },
        () => {
          lockLost = true;
          wakeUp?.();
        },
      );
    } finally {
      // The order the protocol rests on: the door (above, before the lock is released), the
      // socket, then the last look.
      state = "closing";
      closeDoor();
      await server?.close();
    }
    if (!locked) {
      await ports.wakeHolder();
      return "gone";
    }
    if (pausing && !mustGo()) {
      state = "paused";
      pausing = false;
      const flush = pausedFor;
      pausedFor = undefined;
      await ports.waitForFlush(flush);
      return mustGo() ? "gone" : "again";
    }
    if (mustGo()) return "gone";
    return (await ports.hasWork()) ? "again" : "gone";
  }

  return {
    async run() {
      while ((await once()) === "again") lockLost = false;
      if (yielding) await ports.runLeftEvents();
      state = "gone";
    },
    state: () => state,
    stop() {
      stopped = true;
      wake();
    },
  };
}
