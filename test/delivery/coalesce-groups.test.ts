// Subagent coalescing on disk: parts held per session and sink, released as one pending entry
// when the window closes, re-merged with the same id after a crash, corrupt parts quarantined.
import { mkdir, readdir, rename, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  dueTime,
  groupName,
  hasHeld,
  hold,
  releaseHeld,
  type HeldEntry,
} from "../../src/delivery/coalesce-groups.js";
import type { Notification } from "../../src/core/notification.js";
import { outboxEnv } from "../helpers/outbox-env.js";
import { sampleNotification } from "../helpers/sample-notification.js";

function subagent(i: number, sessionId = "s-1"): Notification {
  return sampleNotification({
    id: `n-${String(i)}`,
    event: "SubagentStop",
    failure: false,
    level: "done",
    sessionId,
    agentType: `agent-${String(i)}`,
    lastMessage: `part ${String(i)}`,
  });
}

async function clockBox() {
  const clock = { now: 1_000_000 };
  const box = await outboxEnv(
    { ops: { type: "webhook", url: "http://127.0.0.1:9/x" } },
    () => clock.now,
  );
  const holdPart = (i: number, sinkName = "ops", sessionId = "s-1", holdMs = 3000) =>
    hold(box.deps, { notification: subagent(i, sessionId), sinkName, holdMs, maxBodyLength: 300 });
  return { clock, box, holdPart };
}

describe("held parts", () => {
  it.runIf(process.platform !== "win32")(
    "are 0600 files in 0700 folders, grouped by session and sink",
    async () => {
      const { box, holdPart } = await clockBox();
      await holdPart(1);
      await holdPart(2);
      await holdPart(3, "team");
      await holdPart(4, "ops", "s-2");
      const groups = (await readdir(box.paths.held)).sort();
      expect(groups).toHaveLength(3);
      const group = join(box.paths.held, groupName(subagent(1), "ops"));
      const parts = await readdir(group);
      expect(parts).toHaveLength(2);
      expect((await stat(join(group, parts[0] ?? ""))).mode & 0o777).toBe(0o600);
      expect((await stat(group)).mode & 0o777).toBe(0o700);
      expect((await stat(box.paths.held)).mode & 0o777).toBe(0o700);
      expect(await readdir(box.paths.tmp)).toEqual([]);
      expect(await hasHeld(box.paths)).toBe(true);
    },
  );

  it("stay held inside the window and go out as one pending entry when it closes", async () => {
    const { clock, box, holdPart } = await clockBox();
    await holdPart(1);
    clock.now += 2000;
    await holdPart(2); // extends the window: due 3 s after this one
    clock.now += 2500;
    expect(await releaseHeld(box.deps)).toEqual({
      released: 0,
      waiting: 1,
      nextDueAt: clock.now + 500,
    });
    expect(await box.files("pending")).toEqual([]);
    clock.now += 500;
    expect(await releaseHeld(box.deps)).toMatchObject({ released: 1, waiting: 0 });
    const [entry] = await box.files("pending");
    expect(entry).toMatchObject({
      sinkName: "ops",
      attempts: 0,
      createdAt: 1_000_000,
      notification: { title: "shop-api · 2 subagents finished", agentType: "agent-1, agent-2" },
    });
    expect(await readdir(box.paths.held)).toEqual([]);
    expect(await hasHeld(box.paths)).toBe(false);
    const log = await box.everything();
    expect(log).toContain('"outbox":"coalesced"');
    expect(log).toContain('"parts":["n-1","n-2"]');
  });

  it("go out at the latest 60 s after the first part, however many follow", async () => {
    const { clock, box, holdPart } = await clockBox();
    for (let i = 0; i < 31; i++) {
      await holdPart(i);
      clock.now += 2000;
    }
    expect(await releaseHeld(box.deps)).toMatchObject({ released: 1 });
    const [entry] = await box.files("pending");
    expect((entry?.notification as Notification).coalesced).toHaveLength(31);
  });

  it("go out at once with force (flush), and a lone part keeps its own id", async () => {
    const { box, holdPart } = await clockBox();
    await holdPart(7);
    expect(await releaseHeld(box.deps, { force: true })).toMatchObject({ released: 1 });
    const [entry] = await box.files("pending");
    expect((entry?.notification as Notification).id).toBe("n-7");
    expect((entry?.notification as Notification).coalesced).toBeUndefined();
  });

  it("a worker killed after claiming: the next one merges the same parts into the same id", async () => {
    const { box, holdPart } = await clockBox();
    await holdPart(1);
    await holdPart(2);
    const group = join(box.paths.held, groupName(subagent(1), "ops"));
    // What a worker does first; then it dies (kill -9) before writing the pending entry.
    await rename(group, `${group}.claimed.dead1`);
    expect(await hasHeld(box.paths)).toBe(true);
    await holdPart(3); // a part arriving after the claim starts a new group
    const summary = await releaseHeld(box.deps);
    expect(summary).toMatchObject({ released: 1, waiting: 1 });
    const [entry] = await box.files("pending");
    const merged = entry?.notification as Notification;
    expect(merged.coalesced?.map((p) => p.id)).toEqual(["n-1", "n-2"]);
    // The same claim merged again (a second crash after the write) overwrites the same entry.
    await mkdir(`${group}.claimed.dead2`, { recursive: true });
    const parts = [subagent(1), subagent(2)].map((notification, i) =>
      part(notification, 1_000_000 + i),
    );
    for (const [i, p] of parts.entries())
      await writeFile(join(`${group}.claimed.dead2`, `${String(i)}.json`), JSON.stringify(p));
    await releaseHeld(box.deps);
    const pending = await box.files("pending");
    expect(pending).toHaveLength(1);
    expect((pending[0]?.notification as Notification).id).toBe(merged.id);
  });

  it("a corrupt part is quarantined with a log line; the others still go out", async () => {
    const { box, holdPart } = await clockBox();
    await holdPart(1);
    const group = join(box.paths.held, groupName(subagent(1), "ops"));
    await writeFile(join(group, "000000000000001.broken.json"), '{"version":1,"key":');
    expect(await releaseHeld(box.deps, { force: true })).toMatchObject({ released: 1 });
    expect(await box.files("pending")).toHaveLength(1);
    expect(await readdir(box.paths.corrupt)).toHaveLength(1);
    expect(await box.everything()).toContain('"outbox":"quarantined"');
  });

  it("an empty group folder (a hook died between mkdir and rename) is left alone, then removed", async () => {
    const { clock, box } = await clockBox();
    const empty = join(box.paths.held, "ops.0000000000000000");
    await mkdir(empty, { recursive: true });
    expect(await releaseHeld(box.deps)).toEqual({ released: 0, waiting: 0 });
    expect(await hasHeld(box.paths)).toBe(false);
    clock.now = Date.now() + 5 * 60_000;
    await releaseHeld(box.deps);
    expect(await readdir(box.paths.held)).toEqual([]);
  });
});

describe("dueTime", () => {
  it.each<[string, [number, number][], number]>([
    ["one part: its window", [[0, 3000]], 3000],
    [
      "the latest part's window",
      [
        [0, 3000],
        [2000, 3000],
      ],
      5000,
    ],
    [
      "a longer window on an earlier part wins",
      [
        [0, 9000],
        [2000, 3000],
      ],
      9000,
    ],
    [
      "never past 60 s after the first",
      [
        [0, 3000],
        [59_000, 3000],
      ],
      60_000,
    ],
  ])("%s", (_, parts, due) => {
    expect(dueTime(parts.map(([createdAt, holdMs]) => ({ createdAt, holdMs }) as HeldEntry))).toBe(
      due,
    );
  });
});

function part(notification: Notification, createdAt: number): HeldEntry {
  return {
    version: 1,
    key: `k-${notification.id}`,
    sinkName: "ops",
    notification,
    createdAt,
    attempts: 0,
    notBefore: createdAt,
    holdMs: 3000,
    maxBodyLength: 300,
  };
}
