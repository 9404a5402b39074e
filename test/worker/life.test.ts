// The worker's life (src/worker/life.ts) with every port a fake and a virtual clock: the order of
// its steps (lock, door, socket beside the first round, last look), lingering, knocks, pause for a flush, yield, a lock
// held by another process, a lost lock. No process, no timer of the machine: time is advanced by
// hand, so nothing here depends on how fast the machine is.
import { describe, expect, it } from "vitest";
import {
  createWorkerLife,
  type Door,
  type LifeOptions,
  type Round,
  type WorkerLife,
  type WorkerPorts,
} from "../../src/worker/life.js";

type OnMessage = (message: "wake" | "yield" | "pause", pid?: number) => boolean;

interface Scene {
  life: WorkerLife;
  trace: string[];
  now: () => number;
  /** Lets every pending promise settle, then fires timers until `until` (virtual ms). */
  advance(ms: number): Promise<void>;
  send: OnMessage;
  knock(pids?: number[]): void;
  done: Promise<void>;
  isDone(): boolean;
}

const OPTIONS: LifeOptions = { idleMs: 10_000, recheckMs: 60_000, pollMs: 500 };
/** The first hold's start: lock taken, prepare, door open, listen, the first round, a round. */
const FIRST = 6;

const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};

// `rounds` answers each round in turn (then: nothing done, nothing waiting).
function scene(
  overrides: Partial<WorkerPorts> = {},
  rounds: Round[] = [],
  options: LifeOptions = OPTIONS,
): Scene {
  let clock = 0;
  const timers: { at: number; done: () => void }[] = [];
  const trace: string[] = [];
  let onMessage: OnMessage = () => false;
  let onKnock: (pids: readonly number[]) => void = () => undefined;
  let work: boolean[] = [];
  const ports: WorkerPorts = {
    now: () => clock,
    timer(ms, done) {
      const timer = { at: clock + ms, done };
      timers.push(timer);
      return () => {
        timers.splice(timers.indexOf(timer), 1);
      };
    },
    listen(handler) {
      onMessage = handler;
      trace.push("listen");
      return Promise.resolve({
        close: () => {
          trace.push("socket closed");
          return Promise.resolve();
        },
      });
    },
    async withLock(body) {
      trace.push("lock taken");
      await body();
      trace.push("lock released");
      return true;
    },
    wakeHolder: () => {
      trace.push("holder woken");
      return Promise.resolve();
    },
    prepare: () => {
      trace.push("prepare");
      return Promise.resolve();
    },
    openDoor(knock): Door {
      onKnock = knock;
      trace.push("door open");
      return {
        refresh: () => trace.push("door refreshed"),
        close: () => trace.push("door closed"),
      };
    },
    round(first) {
      trace.push(`round${first ? " (first)" : ""} at ${String(clock)}`);
      return Promise.resolve(rounds.shift() ?? { worked: false, waiting: false });
    },
    lookout: () => Promise.resolve(() => Promise.resolve(false)),
    hasWork() {
      trace.push("last look");
      return Promise.resolve(work.shift() ?? false);
    },
    waitForFlush(pid) {
      trace.push(`paused for ${String(pid)}`);
      return Promise.resolve();
    },
    runLeftEvents() {
      trace.push("left events run");
      return Promise.resolve();
    },
    ...overrides,
  };
  const life = createWorkerLife(ports, options);
  let finished = false;
  const done = life.run().then(() => {
    finished = true;
    trace.push("gone");
  });
  return {
    life,
    trace,
    now: () => clock,
    async advance(ms) {
      const until = clock + ms;
      await settle();
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > until) break;
        timers.shift();
        clock = next.at;
        next.done();
        await settle();
      }
      clock = until;
      await settle();
    },
    send: (message, pid) => onMessage(message, pid),
    knock: (pids = []) => {
      onKnock(pids);
    },
    done,
    isDone: () => finished,
    set lastLooks(values: boolean[]) {
      work = values;
    },
  } as Scene & { lastLooks: boolean[] };
}

describe("the worker's life", () => {
  it("works, lingers its idle time, then closes the door before the lock, the socket before the last look", async () => {
    const s = scene({}, [{ worked: true, waiting: false }]);
    await s.advance(9_000);
    expect(s.isDone()).toBe(false);
    expect(s.life.state()).toBe("lingering");
    await s.advance(2_000);
    await s.done;
    expect(s.trace).toEqual([
      "lock taken",
      "prepare",
      "door open",
      // The socket beside the first round, then a round for what came while there was none.
      "listen",
      "round (first) at 0",
      "round at 0",
      "round at 10000",
      "door closed",
      "lock released",
      "socket closed",
      "last look",
      "gone",
    ]);
  });

  it("a knock wakes a lingering worker at once: the door is refreshed, then a round", async () => {
    const s = scene();
    await s.advance(3_000);
    s.knock();
    await s.advance(0);
    expect(s.trace.slice(FIRST)).toEqual(["door refreshed", "round at 3000"]);
    s.life.stop();
    await s.advance(0);
    await s.done;
  });

  it("with a knock settle, the round comes that long after the first knock, once for many", async () => {
    const s = scene({}, [], { ...OPTIONS, knockSettleMs: 25 });
    await s.advance(3_000);
    s.knock();
    await s.advance(10);
    s.knock(); // within the settle: the same wake
    await s.advance(10);
    expect(s.trace.slice(FIRST)).toEqual([]);
    await s.advance(5);
    expect(s.trace.slice(FIRST)).toEqual(["door refreshed", "round at 3025"]);
    await s.advance(100);
    expect(s.trace.slice(FIRST)).toHaveLength(2);
    s.life.stop();
    await s.advance(0);
    await s.done;
  });

  it("with the knocking hooks named, the round comes once all of them have exited, within the settle", async () => {
    const gone = new Set<number>();
    const s = scene({ exited: (pid) => gone.has(pid) }, [], {
      ...OPTIONS,
      knockSettleMs: 25,
      knockPollMs: 2,
    });
    await s.advance(3_000);
    s.knock([41]);
    s.knock([42]);
    await s.advance(6);
    gone.add(41);
    await s.advance(4);
    expect(s.trace.slice(FIRST)).toEqual([]); // 42 is still exiting
    gone.add(42);
    await s.advance(2);
    expect(s.trace.slice(FIRST)).toEqual(["door refreshed", "round at 3012"]);
    await s.advance(100);
    expect(s.trace.slice(FIRST)).toHaveLength(2); // the settle's own end wakes nothing more
    // A knock that names no hook: only the settle's time is left to go by.
    s.knock([43]);
    s.knock();
    gone.add(43);
    await s.advance(20);
    expect(s.trace.slice(FIRST)).toHaveLength(2);
    await s.advance(5);
    expect(s.trace.slice(FIRST)).toEqual([
      "door refreshed",
      "round at 3012",
      "door refreshed",
      "round at 3137",
    ]);
    s.life.stop();
    await s.advance(0);
    await s.done;
  });

  it("sleeps until the next due time, then works again, and stays while work waits", async () => {
    const s = scene(
      {},
      [
        { worked: true, waiting: true, nextDueAt: 150_000 },
        { worked: false, waiting: true, nextDueAt: 150_000 },
        { worked: true, waiting: false },
      ],
      { ...OPTIONS, idleMs: 600_000 },
    );
    await s.advance(149_000);
    // With a socket it looks again at least once a minute (a look that finds nothing due).
    expect(s.trace.filter((line) => line.startsWith("round"))).toEqual([
      "round (first) at 0",
      "round at 0",
    ]);
    await s.advance(1_000);
    expect(s.trace).toContain("round at 150000");
    expect(s.isDone()).toBe(false);
    await s.advance(600_000);
    await s.done;
    expect(s.trace.at(-1)).toBe("gone");
  });

  it("paused for a flush: lets go of the lock, waits for that flush, takes the lock back", async () => {
    const s = scene({}, [{ worked: true, waiting: true, nextDueAt: 150_000 }]);
    await s.advance(1_000);
    expect(s.send("pause", 4242)).toBe(false);
    await s.advance(0);
    expect(s.trace.slice(FIRST)).toEqual([
      "door closed",
      "lock released",
      "socket closed",
      "paused for 4242",
      "lock taken",
      "prepare",
      "door open",
      "listen",
      "round (first) at 1000",
      "round at 1000",
    ]);
    s.life.stop();
    await s.advance(0);
    await s.done;
  });

  it("asked to yield: leaves after the round in flight and runs the events handed over meanwhile", async () => {
    const s = scene();
    await s.advance(1_000);
    expect(s.send("yield")).toBe(false);
    await s.advance(0);
    await s.done;
    expect(s.trace.slice(-5)).toEqual([
      "door closed",
      "lock released",
      "socket closed",
      "left events run",
      "gone",
    ]);
  });

  it("a wake while it lingers is answered ok (a look follows); once closing, no", async () => {
    let answerWhileClosing: boolean | undefined;
    const s = scene({
      hasWork() {
        answerWhileClosing = s.send("wake");
        return Promise.resolve(false);
      },
    });
    await s.advance(1_000);
    expect(s.send("wake")).toBe(true);
    await s.advance(20_000);
    await s.done;
    expect(answerWhileClosing).toBe(false);
  });

  it("another process holds the lock: wakes it and leaves without a round", async () => {
    const s = scene({ withLock: () => Promise.resolve(false) });
    await s.advance(0);
    await s.done;
    // It never listens: the socket is opened holding the lock.
    expect(s.trace).toEqual(["holder woken", "gone"]);
  });

  it("work found at the last look: takes the lock again", async () => {
    const s = scene() as Scene & { lastLooks: boolean[] };
    s.lastLooks = [true, false];
    await s.advance(25_000);
    await s.done;
    expect(s.trace.filter((line) => line === "lock taken")).toHaveLength(2);
  });

  it("a lost lock ends the stay at once", async () => {
    let lose: () => void = () => undefined;
    const s = scene({
      async withLock(body, onLost) {
        lose = onLost;
        await body();
        return true;
      },
    });
    await s.advance(2_000);
    lose();
    await s.advance(0);
    await s.done;
    expect(s.now()).toBe(2_000);
  });

  it("without a socket it cannot linger: it leaves when the work is done", async () => {
    const s = scene({ listen: () => Promise.resolve(undefined) }, [
      { worked: true, waiting: false },
    ]);
    await s.advance(0);
    await s.done;
    expect(s.now()).toBe(0);
  });
});
