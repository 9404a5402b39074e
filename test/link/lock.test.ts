import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  acquireLock,
  lockHolder,
  lockSocket,
  uniqueToken,
  whileLocked,
  type LockOwner,
} from "../../src/link/lock.js";
import { STALE_MS } from "../../src/core/defaults.js";
import { processOwner } from "../../src/link/spawn.js";
import { zombie } from "../helpers/zombie.js";

async function lockFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "hn-lock-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return join(dir, "worker.lock");
}

const alive = new Set<number>();
const owner = (pid: number): LockOwner => ({ pid, now: Date.now, isAlive: (p) => alive.has(p) });

describe("worker lock", () => {
  it("lets one owner in; a second one is told no while the first lives", async () => {
    const path = await lockFile();
    alive.add(101).add(102);
    const first = await acquireLock(path, owner(101));
    expect(first).toBeDefined();
    expect(await acquireLock(path, owner(102))).toBeUndefined();
    expect(await lockHolder(path, owner(102))).toBe(101);
    await first!.release();
    expect(await acquireLock(path, owner(102))).toBeDefined();
  });

  it("appears whole (pid and token) and leaves no temp file; a crashed writer's temp is no lock", async () => {
    const path = await lockFile();
    alive.add(104).add(105);
    await writeFile(`${path}.deadbeef.tmp`, JSON.stringify({ pid: 999_998, token: "x" }));
    const lock = await acquireLock(path, owner(104));
    expect(lock).toBeDefined();
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ pid: 104 });
    expect(
      (await readdir(dirname(path))).filter((f) => f.endsWith(".tmp") && !f.includes("deadbeef")),
    ).toEqual([]);
    expect(await acquireLock(path, owner(105))).toBeUndefined();
  });

  it("takes over the lock of a dead owner (kill -9)", async () => {
    const path = await lockFile();
    await writeFile(path, JSON.stringify({ pid: 999_999, token: "t", startedAt: 0 }));
    expect(await lockHolder(path, owner(1))).toBeUndefined();
    const lock = await acquireLock(path, owner(103));
    expect(lock).toBeDefined();
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ pid: 103 });
  });

  it("takes over a lock without a heartbeat even if its pid looks alive (pid reuse)", async () => {
    const path = await lockFile();
    alive.add(104);
    await writeFile(path, JSON.stringify({ pid: 104, token: "t", startedAt: 0 }));
    const old = new Date(Date.now() - STALE_MS - 1_000);
    await utimes(path, old, old);
    expect(await acquireLock(path, owner(105))).toBeDefined();
  });

  it("release never removes a successor's lock", async () => {
    const path = await lockFile();
    const first = await acquireLock(path, owner(106));
    await writeFile(path, JSON.stringify({ pid: 107, token: "other", startedAt: 0 }));
    await first!.release();
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ pid: 107 });
  });

  it("taken without a socket, names one later: live by its pid until then, by the socket after; never a successor's", async () => {
    const path = await lockFile();
    alive.add(108).add(109);
    const listening = new Set<string>();
    const probing = (pid: number): LockOwner => ({
      ...owner(pid),
      probe: (socket) => Promise.resolve(listening.has(socket)),
    });
    const lock = await acquireLock(path, probing(108));
    expect(await lockSocket(path)).toBeUndefined();
    expect(await acquireLock(path, probing(109))).toBeUndefined(); // its pid lives
    const taken = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
    listening.add("/run/w.sock");
    expect(await lock!.nameSocket("/run/w.sock")).toBe(true);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ ...taken, socket: "/run/w.sock" });
    expect(await lockSocket(path)).toBe("/run/w.sock");
    expect(await lock!.refresh()).toBe(true); // the same lock: its token kept
    expect(await acquireLock(path, probing(109))).toBeUndefined(); // its socket answers
    expect((await readdir(dirname(path))).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    // Nobody answers on the socket it names: taken over, and the old holder names nothing.
    listening.clear();
    const successor = await acquireLock(path, probing(109));
    expect(successor).toBeDefined();
    expect(await lock!.nameSocket("/run/w.sock")).toBe(false);
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ pid: 109 });
    expect(await lockSocket(path)).toBeUndefined();
  });

  it.runIf(process.platform === "linux")(
    "a holder killed before it named a socket and left a zombie is taken over at once (the worker's own owner)",
    async () => {
      const path = await lockFile();
      const pid = await zombie();
      await writeFile(path, JSON.stringify({ pid, token: "t", startedAt: Date.now() }));
      const worker = processOwner({ now: Date.now });
      expect(await lockHolder(path, worker)).toBeUndefined();
      expect(await acquireLock(path, worker)).toBeDefined();
      expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ pid: process.pid });
    },
  );

  it("only one of many concurrent contenders wins", async () => {
    const path = await lockFile();
    for (let pid = 200; pid < 220; pid++) alive.add(pid);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => acquireLock(path, owner(200 + i))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});

// The worker's and flush's one way to drain: lock, work, release (also when the work throws).
describe("whileLocked", () => {
  it("holds the lock during the work only, and does no work when another owner holds it", async () => {
    const path = await lockFile();
    alive.add(201).add(202);
    const inside = await whileLocked(path, owner(201), async () => lockHolder(path, owner(202)));
    expect(inside).toEqual({ value: 201 });
    expect(await lockHolder(path, owner(202))).toBeUndefined();
    const other = await acquireLock(path, owner(202));
    let ran = false;
    const refused = await whileLocked(path, owner(201), () => {
      ran = true;
      return Promise.resolve();
    });
    expect(refused).toBeUndefined();
    expect(ran).toBe(false);
    await other?.release();
    await expect(
      whileLocked(path, owner(201), () => Promise.reject(new Error("boom"))),
    ).rejects.toThrow("boom");
    expect(await acquireLock(path, owner(202))).toBeDefined();
  });

  // Names of the lock's temp file, the worker's socket and its door: no two alike in a process,
  // and no other live process makes one that starts with this process's pid.
  it("makes tokens of 16 hex digits that lead with the pid and never repeat", () => {
    const tokens = Array.from({ length: 1000 }, () => uniqueToken());
    for (const token of tokens) expect(token).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(tokens.map((token) => token.slice(0, 8)))).toEqual(
      new Set([process.pid.toString(16).padStart(8, "0")]),
    );
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});
