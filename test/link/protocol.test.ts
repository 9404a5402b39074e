// The link's protocol itself (src/link/PROTOCOL.md), in one process: a hook side and a worker side
// made of the real inbox, adopt and store functions, against a temp folder, with an in-memory door
// (the FIFO: open while the worker offers, closed before its last look). Every interleaving of the
// hook's steps with the worker's, with and without the worker dying at each point, must end with
// every event run exactly once and nothing left in events/ or tmp/.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { adoptOrphans } from "../../src/link/adopt.js";
import {
  listEvents,
  recoverEvents,
  takeEvent,
  writeEvent,
  type EventEntry,
} from "../../src/link/inbox.js";
import type { OutboxPaths } from "../../src/outbox/paths.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempPaths(): OutboxPaths {
  const root = mkdtempSync(join(tmpdir(), "hn-protocol-"));
  dirs.push(root);
  const at = (name: string) => join(root, name);
  const paths: OutboxPaths = {
    root,
    pending: at("pending"),
    held: at("held"),
    digest: at("digest"),
    failed: at("failed"),
    corrupt: at("corrupt"),
    tmp: at("tmp"),
    events: at("events"),
    lock: at("worker.lock"),
    stamp: at("fast.json"),
  };
  for (const dir of [paths.pending, paths.failed, paths.tmp, paths.events]) mkdirSync(dir);
  return paths;
}

const entry = (payload: string): EventEntry => ({
  version: 1,
  build: "test",
  args: {},
  payload,
  receivedAt: Date.now(),
  cwd: "/",
  ppid: 1,
  env: {},
});

/** The world both sides act on: the folder, the door, who ran what, which workers live. */
interface World {
  paths: OutboxPaths;
  doorOpen: boolean;
  /** A worker process: alive, has it done its last look, is it gone. */
  worker: "none" | "offering" | "leaving" | "gone";
  runs: string[];
  started: number;
}

// A temp outbox with a worker that offers (its door open), or none at all.
function newWorld(worker: "offering" | "none"): World {
  return { paths: tempPaths(), doorOpen: worker === "offering", worker, runs: [], started: 0 };
}

// The worker's drain: take every waiting event (a rename only one side wins) and run it.
function workerTakesAll(world: World): void {
  for (const name of listEvents(world.paths)) {
    const taken = takeEvent(world.paths, name);
    if (taken === undefined) continue;
    world.runs.push(name);
    rmSync(taken);
  }
}

// A worker started by a hook: adopts orphans and recovers taken events, then drains and offers.
function startWorker(world: World): void {
  world.started++;
  adoptOrphans(world.paths, () => false);
  recoverEvents(world.paths, () => false);
  workerTakesAll(world);
  world.worker = "offering";
  world.doorOpen = true;
}

type HookStep = "write" | "knock";
type WorkerStep = "close-door" | "last-look" | "exit";

// One hook: write the event durably, then knock; a knock nobody reads starts a worker.
function hookStep(world: World, step: HookStep, payload: string): void {
  if (step === "write") writeEvent(world.paths, entry(payload));
  else if (world.doorOpen) workerTakesAll(world);
  else startWorker(world);
}

// A leaving worker: the door closes first, then the last look, then it is gone.
function workerStep(world: World, step: WorkerStep): void {
  if (world.worker !== "offering" && world.worker !== "leaving") return;
  if (step === "close-door") {
    world.doorOpen = false;
    world.worker = "leaving";
  } else if (step === "last-look") {
    if (world.worker === "leaving") workerTakesAll(world);
  } else world.worker = "gone";
}

// Every merge of two sequences that keeps each one's order.
function interleavings<A, B>(a: readonly A[], b: readonly B[]): (A | B)[][] {
  if (a.length === 0) return [[...b]];
  if (b.length === 0) return [[...a]];
  const [a0, ...aRest] = a as [A, ...A[]];
  const [b0, ...bRest] = b as [B, ...B[]];
  return [
    ...interleavings(aRest, b).map((rest) => [a0, ...rest]),
    ...interleavings(a, bRest).map((rest) => [b0, ...rest]),
  ];
}

const HOOK: HookStep[] = ["write", "knock"];
const LEAVING: WorkerStep[] = ["close-door", "last-look", "exit"];

describe("the link's protocol (PROTOCOL.md)", () => {
  const cases = interleavings<HookStep, WorkerStep>(HOOK, LEAVING);

  it.each(cases.map((steps) => [steps.join(" → "), steps]))(
    "a hook against a leaving worker, %s: the event runs exactly once",
    (_label, steps) => {
      const world = newWorld("offering");
      for (const step of steps) {
        if (step === "write" || step === "knock") hookStep(world, step, "one");
        else workerStep(world, step);
      }
      expect(world.runs).toHaveLength(1);
      expect(listEvents(world.paths)).toEqual([]);
      expect(readdirSync(world.paths.tmp)).toEqual([]);
    },
  );

  it.each(cases.map((steps) => [steps.join(" → "), steps]))(
    "two hooks against a leaving worker, the second after %s: each event runs exactly once",
    (_label, steps) => {
      const world = newWorld("offering");
      for (const step of steps) {
        if (step === "write" || step === "knock") hookStep(world, step, "first");
        else workerStep(world, step);
      }
      hookStep(world, "write", "second");
      hookStep(world, "knock", "second");
      expect(world.runs).toHaveLength(2);
      expect(new Set(world.runs).size).toBe(2);
      expect(listEvents(world.paths)).toEqual([]);
    },
  );

  // The worker wakes its drain knockSettleMs after a knock (worker/life.ts): between the knock and
  // that wake the worker may close its door, look for the last time and exit. For every place the
  // delayed wake can fall (or none: the worker is gone first), the event runs exactly once.
  const settled = cases.flatMap((steps) => {
    const knock = steps.indexOf("knock");
    return Array.from({ length: steps.length - knock }, (_, i) => {
      const at = knock + 1 + i;
      return [...steps.slice(0, at), "wake" as const, ...steps.slice(at)];
    });
  });
  it.each(settled.map((steps) => [steps.join(" → "), steps]))(
    "a knock whose wake comes later, %s: the event runs exactly once",
    (_label, steps) => {
      const world = newWorld("offering");
      let wakePending = false;
      for (const step of steps) {
        if (step === "write") hookStep(world, step, "one");
        else if (step === "knock") {
          if (world.doorOpen) wakePending = true;
          else startWorker(world);
        } else if (step === "wake") {
          // The settle timer fires in whatever state the worker is in; only a draining one runs.
          if (wakePending && world.worker === "offering") workerTakesAll(world);
          wakePending = false;
        } else workerStep(world, step);
      }
      expect(world.runs).toHaveLength(1);
      expect(listEvents(world.paths)).toEqual([]);
      expect(readdirSync(world.paths.tmp)).toEqual([]);
    },
  );

  // A hook with no stamp to go by (the first ever, the first after a config edit) writes its event
  // before anything slow, then starts a worker. Killed in between (a client's kill on a busy
  // machine), it leaves a whole event that no worker was started for: the next hook's worker, or
  // the leaving worker's last look, runs it, once.
  it.each(["none", "offering"] as const)(
    "a hook with no stamp killed between its write and the worker's start (worker: %s): its event runs once",
    (worker) => {
      const world = newWorld(worker);
      if (worker === "offering") workerStep(world, "close-door");
      hookStep(world, "write", "killed before the start");
      if (worker === "offering") {
        workerStep(world, "last-look");
        workerStep(world, "exit");
      }
      hookStep(world, "write", "next");
      hookStep(world, "knock", "next");
      expect(world.runs).toHaveLength(2);
      expect(new Set(world.runs).size).toBe(2);
      expect(listEvents(world.paths)).toEqual([]);
    },
  );

  it("a worker killed after taking an event: the next worker runs it again, once", () => {
    const world = newWorld("none");
    const name = writeEvent(world.paths, entry("taken by the dead"));
    // The dead worker's pid is in the name of what it took; it never ran it.
    const taken = join(world.paths.events, `${name}.999999.taken`);
    rmSync(join(world.paths.events, name));
    writeFileSync(taken, JSON.stringify(entry("taken by the dead")));
    startWorker(world);
    expect(world.runs).toEqual([name]);
    expect(readdirSync(world.paths.events)).toEqual([]);
  });

  it("a hook killed between its temp file and the rename: the next worker adopts the event", () => {
    const world = newWorld("none");
    const name = `${Date.now().toString(36)}-999999-abcdef.json`;
    writeFileSync(join(world.paths.tmp, `${name}.tmp`), JSON.stringify(entry("orphan")));
    // A writer that is still alive keeps its temp file: it may rename it yet.
    expect(adoptOrphans(world.paths, () => true)).toBe(0);
    startWorker(world);
    expect(world.runs).toEqual([name]);
    expect(readdirSync(world.paths.tmp)).toEqual([]);
  });

  it("a hook killed in the middle of writing leaves a partial file that is never run", () => {
    const world = newWorld("none");
    const name = `${Date.now().toString(36)}-999999-abcdef.json`;
    writeFileSync(join(world.paths.tmp, `${name}.tmp`), JSON.stringify(entry("cut")).slice(0, 40));
    startWorker(world);
    expect(world.runs).toEqual([]);
    expect(listEvents(world.paths)).toEqual([]);
  });
});

describe("orphaned outbox entries (adoptOrphans)", () => {
  const pendingEntry = (key: string) =>
    JSON.stringify({ version: 1, key, sinkName: "hook", attempts: 0, notBefore: 0 });

  it("adopts a first write of a dead writer into pending/, never over an entry already there", () => {
    const paths = tempPaths();
    writeFileSync(join(paths.tmp, "n1.hook.abc.999999.x1.new.tmp"), pendingEntry("n1.hook.abc"));
    writeFileSync(join(paths.tmp, "n2.hook.abc.999999.x2.new.tmp"), pendingEntry("n2.hook.abc"));
    writeFileSync(join(paths.pending, "n2.hook.abc.json"), pendingEntry("n2.hook.abc"));
    expect(adoptOrphans(paths, () => false)).toBe(1);
    expect(readdirSync(paths.pending).sort()).toEqual(["n1.hook.abc.json", "n2.hook.abc.json"]);
  });

  it("never adopts a rewrite (it may have been delivered since), a given-up entry or another key", () => {
    const paths = tempPaths();
    writeFileSync(join(paths.tmp, "r.hook.abc.999999.x1.other.tmp"), pendingEntry("r.hook.abc"));
    writeFileSync(join(paths.tmp, "f.hook.abc.999999.x2.new.tmp"), pendingEntry("f.hook.abc"));
    writeFileSync(join(paths.failed, "f.hook.abc.json"), pendingEntry("f.hook.abc"));
    writeFileSync(join(paths.tmp, "k.hook.abc.999999.x3.new.tmp"), pendingEntry("not.k"));
    expect(adoptOrphans(paths, () => false)).toBe(0);
    expect(readdirSync(paths.pending)).toEqual([]);
  });
});
