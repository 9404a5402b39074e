// The worker's due-time index of pending/ (src/link/PROTOCOL.md, "The due-time index"), with the
// real store and real files: what it sees of this process's writes at once, what it sees of
// another process's writes and when, what a crash between writes leaves, and a restart.
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { adoptOrphans } from "../../src/link/adopt.js";
import {
  ensureDirs,
  enqueue,
  moveToFailed,
  newEntry,
  removeEntry,
  writeEntry,
  writeTemp,
  type OutboxEntry,
} from "../../src/outbox/store.js";
import { targetOf } from "../../src/delivery/steps.js";
import { createPendingIndex, type PendingIndex } from "../../src/worker/pending-index.js";
import { outboxEnv, type OutboxEnv } from "../helpers/outbox-env.js";
import { sampleNotification } from "../helpers/sample-notification.js";

const HOUR = 3_600_000;
const NOW = Date.now();

function entry(id: string, notBefore: number, sinkName = "ops"): OutboxEntry {
  return { ...newEntry({ notification: sampleNotification({ id }), sinkName }, NOW), notBefore };
}

// Another process's write: a whole file renamed into pending/, which this process's store does
// not see (as a hook on the slow path writes it).
function writtenElsewhere(box: OutboxEnv, item: OutboxEntry): void {
  const temp = join(box.paths.tmp, `${item.key}.elsewhere`);
  writeFileSync(temp, `${JSON.stringify(item)}\n`, { mode: 0o600 });
  renameSync(temp, join(box.paths.pending, `${item.key}.json`));
}

async function indexed(box: OutboxEnv): Promise<PendingIndex> {
  const index = createPendingIndex(box.paths);
  await index.refresh(() => undefined);
  return index;
}

const keys = (entries: readonly OutboxEntry[]) => entries.map((item) => item.notification.id);

describe("the worker's due-time index", () => {
  it("is built from the folder at start and sees this process's writes and removals at once", async () => {
    const box = await outboxEnv({});
    ensureDirs(box.paths);
    await writeEntry(box.paths, box.paths.pending, entry("due", NOW - 1));
    await writeEntry(box.paths, box.paths.pending, entry("later", NOW + HOUR));
    const index = await indexed(box);
    try {
      expect(keys(index.due(NOW, new Map()))).toEqual(["due"]);
      expect(index.nextDueAt(new Map())).toBe(NOW - 1);
      // A hook event run by this worker queues an entry: no look at the folder needed.
      await enqueue(box.deps, { notification: sampleNotification({ id: "new" }), sinkName: "ops" });
      expect(keys(index.due(Date.now(), new Map())).sort()).toEqual(["due", "new"]);
      // A retry rewrites it later; a delivery removes it; a give-up moves it to failed/.
      const rewritten = entry("due", NOW + 2 * HOUR);
      await writeEntry(box.paths, box.paths.pending, rewritten);
      await removeEntry(box.paths, entry("new", 0).key);
      await moveToFailed(box.paths, entry("later", NOW + HOUR), "gave up", NOW);
      expect(index.due(NOW + HOUR, new Map())).toEqual([]);
      expect(index.counts()).toEqual({ remaining: 1, waitingForEnv: 0, watching: 0 });
      expect(index.nextDueAt(new Map())).toBe(NOW + 2 * HOUR);
    } finally {
      index.close();
    }
  });

  it("reads no file and lists nothing to answer what is due: entries not yet due cost nothing", async () => {
    const box = await outboxEnv({});
    ensureDirs(box.paths);
    for (let i = 0; i < 20; i++)
      await writeEntry(box.paths, box.paths.pending, entry(`w${String(i)}`, NOW + HOUR + i));
    const index = await indexed(box);
    try {
      // A waiting file turned to garbage and a file added behind the index's back: neither is
      // looked at by a wake that was told nothing (no listing, no read).
      await writeFile(join(box.paths.pending, `${entry("w3", 0).key}.json`), "{not json");
      writtenElsewhere(box, entry("quiet", NOW - 1));
      expect(index.due(NOW, new Map())).toEqual([]);
      expect(index.counts().remaining).toBe(20);
    } finally {
      index.close();
    }
  });

  it("sees an entry another process added while the worker runs once it is woken (one listing, new names read)", async () => {
    const box = await outboxEnv({});
    ensureDirs(box.paths);
    await writeEntry(box.paths, box.paths.pending, entry("old", NOW + HOUR));
    const index = await indexed(box);
    try {
      writtenElsewhere(box, entry("hooked", NOW - 1));
      index.markNew(); // the hook's wake on the socket
      await index.refresh(() => undefined);
      expect(keys(index.due(NOW, new Map()))).toEqual(["hooked"]);
      // Without a wake, the periodic look finds it by the folder's mtime.
      writtenElsewhere(box, entry("unannounced", NOW - 2));
      await index.refreshIfChanged(() => undefined);
      expect(keys(index.due(NOW, new Map())).sort()).toEqual(["hooked", "unannounced"]);
      // A file another process removed is forgotten at the next listing.
      rmSync(join(box.paths.pending, `${entry("hooked", 0).key}.json`));
      index.markNew();
      await index.refresh(() => undefined);
      expect(keys(index.due(NOW, new Map()))).toEqual(["unannounced"]);
    } finally {
      index.close();
    }
  });

  it("quarantines a corrupt file another process left, and re-reads after a flush only what changed", async () => {
    const box = await outboxEnv({});
    ensureDirs(box.paths);
    const kept = entry("kept", NOW + HOUR);
    await writeEntry(box.paths, box.paths.pending, kept);
    const index = await indexed(box);
    try {
      // A flush (the worker paused) retried "kept" and pushed it later; a stray file appeared.
      writtenElsewhere(box, { ...kept, attempts: 4, notBefore: NOW - 5 });
      await writeFile(join(box.paths.pending, "stray.json"), "{");
      const quarantined: string[] = [];
      index.markAll(); // the worker takes the lock again
      await index.refresh((item) => quarantined.push(item.name));
      expect(quarantined).toEqual(["stray.json"]);
      expect(index.due(NOW, new Map())).toMatchObject([{ attempts: 4 }]);
    } finally {
      index.close();
    }
  });

  it("a crash between writes: a killed writer's temp file is not an entry until adopted; a worker's restart rebuilds the same index", async () => {
    const box = await outboxEnv({});
    ensureDirs(box.paths);
    await writeEntry(box.paths, box.paths.pending, entry("a", NOW - 1));
    await writeEntry(box.paths, box.paths.pending, entry("b", NOW + HOUR));
    const index = await indexed(box);
    // A hook killed between its temp file and the rename (a dead pid in the temp name).
    const orphan = entry("orphan", NOW - 3);
    const temp = await writeTemp(box.paths, orphan, "new");
    renameSync(temp, temp.replace(`.${String(process.pid)}.`, ".999999999."));
    expect(keys(index.due(NOW, new Map()))).toEqual(["a"]);
    expect(adoptOrphans(box.paths, () => false)).toBe(1);
    index.markNew(); // the worker adopted: it looks again
    await index.refresh(() => undefined);
    expect(keys(index.due(NOW, new Map())).sort()).toEqual(["a", "orphan"]);
    // The worker dies mid-move (failed/ written, pending/ not yet removed): the entry is still
    // pending, as the store promises; a new worker's index holds exactly what the folder holds.
    mkdirSync(box.paths.failed, { recursive: true });
    await writeEntry(box.paths, box.paths.failed, entry("b", NOW + HOUR));
    index.close();
    const restarted = await indexed(box);
    try {
      expect(restarted.counts().remaining).toBe(3);
      expect(keys(restarted.due(NOW + HOUR, new Map())).sort()).toEqual(["a", "b", "orphan"]);
    } finally {
      restarted.close();
    }
  });

  it("a target that is down holds its whole line; others and escalations keep their time", async () => {
    const box = await outboxEnv({});
    ensureDirs(box.paths);
    const down = entry("down", NOW - 10, "dead");
    await writeEntry(box.paths, box.paths.pending, down);
    await writeEntry(box.paths, box.paths.pending, entry("up", NOW - 5, "alive"));
    await writeEntry(box.paths, box.paths.pending, {
      ...entry("follow-up", NOW - 1, "dead"),
      escalation: { session: "s", since: NOW - HOUR, cancelOn: "prompt" },
    });
    const index = await indexed(box);
    try {
      const downUntil = new Map([[targetOf(down), NOW + HOUR]]);
      expect(keys(index.due(NOW, downUntil)).sort()).toEqual(["follow-up", "up"]);
      await removeEntry(box.paths, entry("up", 0, "alive").key);
      await removeEntry(box.paths, entry("follow-up", 0, "dead").key);
      expect(index.nextDueAt(downUntil)).toBe(NOW + HOUR);
    } finally {
      index.close();
    }
  });

  it("an entry waiting for a ${VAR} is tried when due but wakes nobody, and by a new worker at once", async () => {
    const box = await outboxEnv({});
    ensureDirs(box.paths);
    const waiting = {
      ...entry("env", NOW + HOUR),
      lastError: { code: "CONFIG_ENV_MISSING", message: "TOKEN is not set" },
    };
    await writeEntry(box.paths, box.paths.pending, waiting);
    const index = await indexed(box);
    try {
      expect(index.nextDueAt(new Map())).toBeUndefined();
      expect(index.counts()).toMatchObject({ remaining: 1, waitingForEnv: 1 });
      expect(index.due(NOW, new Map())).toEqual([]);
      expect(keys(index.due(NOW, new Map(), { retryWaiting: true }))).toEqual(["env"]);
      expect(keys(index.due(NOW + HOUR, new Map()))).toEqual(["env"]);
    } finally {
      index.close();
    }
  });
});
