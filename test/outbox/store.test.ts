import { stat, readdir, readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readEntries, requeueFailed, createEntryCache } from "../../src/outbox/read-entries.js";
import {
  enqueue,
  ensureDirs,
  entryKey,
  moveToFailed,
  newEntry,
  removeEntry,
  writeEntry,
} from "../../src/outbox/store.js";
import { outboxEnv } from "../helpers/outbox-env.js";
import { sampleNotification } from "../helpers/sample-notification.js";

const SECRET_URL = "https://hooks.example.com/T0/SECRETPATH-2718";

describe("outbox store", () => {
  it.runIf(process.platform !== "win32")("writes 0600 files in 0700 folders", async () => {
    const box = await outboxEnv({});
    const key = await enqueue(box.deps, { notification: sampleNotification(), sinkName: "ops" });
    expect((await stat(join(box.paths.pending, `${key}.json`))).mode & 0o777).toBe(0o600);
    expect((await stat(box.paths.pending)).mode & 0o777).toBe(0o700);
    expect((await stat(box.paths.root)).mode & 0o777).toBe(0o700);
  });

  it("stores the sink name, config path and notification, never the sink's options", async () => {
    const box = await outboxEnv({ ops: { type: "webhook", url: SECRET_URL } });
    await enqueue(box.deps, {
      notification: sampleNotification(),
      sinkName: "ops",
      configPath: box.configPath,
      projectDir: "/p",
    });
    const [entry] = await box.files("pending");
    expect(entry).toMatchObject({
      version: 1,
      sinkName: "ops",
      configPath: box.configPath,
      projectDir: "/p",
      attempts: 0,
    });
    expect(JSON.stringify(entry)).not.toContain("SECRETPATH");
    expect(await readdir(box.paths.tmp)).toEqual([]);
  });

  it("keeps 100 concurrent enqueues intact, one file each", async () => {
    const box = await outboxEnv({});
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        enqueue(box.deps, { notification: sampleNotification({ id: `n${i}` }), sinkName: "ops" }),
      ),
    );
    const entries = await readEntries(box.paths, box.paths.pending, () => undefined);
    expect(new Set(entries.map((e) => e.notification.id)).size).toBe(100);
  });

  it("gives one key per notification and sink; the same pair overwrites itself", async () => {
    expect(entryKey("a", "ops")).toBe(entryKey("a", "ops"));
    expect(entryKey("a", "ops")).not.toBe(entryKey("a", "team"));
    expect(entryKey("a.b", "x")).not.toBe(entryKey("a_b", "x"));
    expect(entryKey("../../etc", "a/b")).not.toMatch(/[/\\]/);
    const box = await outboxEnv({});
    await enqueue(box.deps, { notification: sampleNotification(), sinkName: "ops" });
    await enqueue(box.deps, { notification: sampleNotification(), sinkName: "ops" });
    expect(await box.files("pending")).toHaveLength(1);
  });

  it.each([
    ["truncated JSON", '{"version":1,"key":"x","sinkN'],
    ["empty file", ""],
    ["not an entry", '{"hello":"world"}'],
  ])("quarantines a %s into corrupt/ and reports it", async (_name, content) => {
    const box = await outboxEnv({});
    await enqueue(box.deps, { notification: sampleNotification(), sinkName: "ops" });
    await writeFile(join(box.paths.pending, "bad.json"), content);
    const seen: string[] = [];
    const entries = await readEntries(box.paths, box.paths.pending, (q) => seen.push(q.name));
    expect(entries).toHaveLength(1);
    expect(seen).toEqual(["bad.json"]);
    const [moved] = await readdir(box.paths.corrupt);
    expect(await readFile(join(box.paths.corrupt, moved!), "utf8")).toBe(content);
  });

  it("moves a given-up entry to failed/ and back with requeueFailed", async () => {
    const box = await outboxEnv({});
    await enqueue(box.deps, { notification: sampleNotification(), sinkName: "ops" });
    const [entry] = await readEntries(box.paths, box.paths.pending, () => undefined);
    await moveToFailed(box.paths, entry!, "HTTP 404", 1);
    expect(await box.files("pending")).toEqual([]);
    expect(await box.files("failed")).toMatchObject([{ failure: { reason: "HTTP 404" } }]);
    expect(await requeueFailed(box.paths, 5)).toBe(1);
    const [back] = await box.files("pending");
    expect(back).toMatchObject({ createdAt: 5, notBefore: 5 });
    expect(back).not.toHaveProperty("failure");
  });
});

describe("readEntries with the worker's cache", () => {
  it("parses a file once while it is unchanged, again once rewritten, and forgets removed ones", async () => {
    const box = await outboxEnv({});
    const cache = createEntryCache();
    await enqueue(box.deps, { notification: sampleNotification({ id: "a" }), sinkName: "ops" });
    await enqueue(box.deps, { notification: sampleNotification({ id: "b" }), sinkName: "ops" });
    const first = await readEntries(box.paths, box.paths.pending, () => undefined, cache);
    const again = await readEntries(box.paths, box.paths.pending, () => undefined, cache);
    expect(again).toHaveLength(2);
    expect(again[0]).toBe(first[0]); // the same parsed object: no read, no parse
    const [a] = first;
    if (!a) throw new Error("no entry");
    await writeEntry(box.paths, box.paths.pending, { ...a, attempts: 3, notBefore: 42 });
    const rewritten = await readEntries(box.paths, box.paths.pending, () => undefined, cache);
    expect(rewritten.find((e) => e.key === a.key)).toMatchObject({ attempts: 3, notBefore: 42 });
    await removeEntry(box.paths, a.key);
    expect(await readEntries(box.paths, box.paths.pending, () => undefined, cache)).toHaveLength(1);
    expect(cache.files.size).toBe(1);
  });

  it("still quarantines a file that turns corrupt", async () => {
    const box = await outboxEnv({});
    const cache = createEntryCache();
    const key = await enqueue(box.deps, { notification: sampleNotification(), sinkName: "ops" });
    await readEntries(box.paths, box.paths.pending, () => undefined, cache);
    await writeFile(join(box.paths.pending, `${key}.json`), '{"version":1,"ke');
    const quarantined: string[] = [];
    const left = await readEntries(
      box.paths,
      box.paths.pending,
      (item) => quarantined.push(item.name),
      cache,
    );
    expect(left).toEqual([]);
    expect(quarantined).toEqual([`${key}.json`]);
  });
});

describe("a worker's look at a backlog", () => {
  // What a wake costs in file-system calls, after the look at start: the same with 10 or 200
  // entries not yet due (they are neither listed again, nor stat'ed, nor read).
  async function callsPerLook(waiting: number) {
    const box = await outboxEnv({});
    await ensureDirs(box.paths);
    const now = Date.now();
    for (let i = 0; i < waiting; i += 1) {
      const entry = newEntry(
        { notification: sampleNotification({ id: `w${i}` }), sinkName: "ops" },
        now,
      );
      await writeEntry(box.paths, box.paths.pending, { ...entry, notBefore: now + 3_600_000 });
    }
    await enqueue(box.deps, { notification: sampleNotification({ id: "due" }), sinkName: "ops" });
    // The folder last changed a while ago (a fresh change is listed again: same-tick writes).
    const past = new Date(now - 10_000);
    await utimes(box.paths.pending, past, past);
    const cache = createEntryCache();
    const look = now + 60_000; // the due entry is due; the others wait an hour
    const first = await readEntries(box.paths, box.paths.pending, () => undefined, cache, look);
    expect(first).toHaveLength(waiting + 1);
    cache.calls = { list: 0, stat: 0, read: 0 };
    const again = await readEntries(box.paths, box.paths.pending, () => undefined, cache, look);
    expect(again).toHaveLength(waiting + 1);
    return cache.calls;
  }

  it("costs what is due, not what waits", async () => {
    const small = await callsPerLook(10);
    const large = await callsPerLook(200);
    expect(large).toEqual(small);
    expect(large).toEqual({ list: 0, stat: 1, read: 0 });
  });
});
