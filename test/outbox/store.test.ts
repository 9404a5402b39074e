import { stat, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readEntries, requeueFailed } from "../../src/outbox/read-entries.js";
import { enqueue, entryKey, moveToFailed } from "../../src/outbox/store.js";
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

describe("readEntries", () => {
  it("quarantines a file that turns corrupt", async () => {
    const box = await outboxEnv({});
    const key = await enqueue(box.deps, { notification: sampleNotification(), sinkName: "ops" });
    await readEntries(box.paths, box.paths.pending, () => undefined);
    await writeFile(join(box.paths.pending, `${key}.json`), '{"version":1,"ke');
    const quarantined: string[] = [];
    const left = await readEntries(box.paths, box.paths.pending, (item) =>
      quarantined.push(item.name),
    );
    expect(left).toEqual([]);
    expect(quarantined).toEqual([`${key}.json`]);
  });
});
