// The digest on disk: entries held per sink while away, released as one pending entry when the
// time comes (forced here, or "HH:MM"), re-merged with the same id after a crash.
import { readdir, rename } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  hasDigest,
  holdForDigest,
  nextTimeOfDay,
  releaseDigests,
} from "../../src/delivery/digest.js";
import { checkGate } from "../../src/delivery/presence-gate.js";
import { ensureDirs, newEntry } from "../../src/outbox/store.js";
import { outboxEnv } from "../helpers/outbox-env.js";
import { sampleNotification } from "../helpers/sample-notification.js";

async function heldBox(at: string, now: { value: number }) {
  const box = await outboxEnv(
    { ops: { type: "webhook", url: "http://127.0.0.1:9/x" } },
    () => now.value,
  );
  ensureDirs(box.paths);
  for (const i of [1, 2, 3]) {
    const notification = sampleNotification({ id: `n-${String(i)}`, sessionId: `s-${String(i)}` });
    const entry = newEntry(
      { notification, sinkName: "ops", digest: { at, awayOnly: false } },
      now.value,
    );
    await holdForDigest(box.deps, box.paths, entry, undefined);
  }
  return box;
}

describe("digest folders", () => {
  it("holds entries durably and releases them as one pending entry", async () => {
    const now = { value: Date.parse("2026-11-25T10:00:00") };
    const box = await heldBox("18:00", now);
    expect(await hasDigest(box.paths)).toBe(true);
    const waiting = await releaseDigests(box.deps);
    expect(waiting).toMatchObject({ released: 0, waiting: 1 });
    expect(waiting.nextDueAt).toBe(Date.parse("2026-11-25T18:00:00"));
    now.value = Date.parse("2026-11-25T18:00:00");
    expect(await releaseDigests(box.deps)).toMatchObject({ released: 1, waiting: 0 });
    const [pending] = await box.files("pending");
    const notification = (pending as { notification: { title: string; digest: unknown[] } })
      .notification;
    expect(notification.title).toMatch(/^While you were away: 3 sessions/);
    expect(notification.digest).toHaveLength(3);
    expect(pending).not.toHaveProperty("presence");
    expect(pending).not.toHaveProperty("digest");
    expect(await hasDigest(box.paths)).toBe(false);
  });

  it("re-merges a folder a killed worker had claimed, with the same id", async () => {
    const now = { value: Date.parse("2026-11-25T10:00:00") };
    const box = await heldBox("return", now);
    const [folder] = await readdir(box.paths.digest);
    await rename(
      join(box.paths.digest, folder ?? ""),
      join(box.paths.digest, `${folder ?? ""}.claimed.dead`),
    );
    expect(await releaseDigests(box.deps, { abandoned: false })).toMatchObject({ released: 0 });
    expect(await releaseDigests(box.deps)).toMatchObject({ released: 1 });
    const lines = await box.everything();
    expect(lines).toMatch(/"outbox":"digest"/);
    expect(await box.files("pending")).toHaveLength(1);
  });

  it("finds the next local HH:MM after a time", () => {
    const from = new Date(2026, 10, 25, 18, 30).getTime();
    expect(nextTimeOfDay(from, "18:00")).toBe(new Date(2026, 10, 26, 18, 0).getTime());
    expect(nextTimeOfDay(from, "19:05")).toBe(new Date(2026, 10, 25, 19, 5).getTime());
  });
});

describe("the gate for a digest sink", () => {
  const gate = (forced?: "away") => ({
    idleSeconds: 60,
    pids: [],
    env: {},
    ...(forced ? { forced } : {}),
  });

  it("holds while away, and sends when no probe can tell (never holds on a guess)", async () => {
    const box = await outboxEnv({ ops: { type: "webhook", url: "http://127.0.0.1:9/x" } });
    const entry = (awayOnly: boolean, forced?: "away") =>
      newEntry(
        {
          notification: sampleNotification(),
          sinkName: "ops",
          presence: gate(forced),
          digest: { at: "return", awayOnly },
        },
        0,
      );
    const env = { ...box.deps, env: { PATH: "/nonexistent" } };
    expect(await checkGate(entry(false, "away"), env, new Map())).toMatchObject({
      send: false,
      outcome: "held",
      rule: "digest",
    });
    expect(await checkGate(entry(false), env, new Map())).toMatchObject({
      send: true,
      presence: { state: "unknown" },
    });
    expect(await checkGate(entry(true), env, new Map())).toMatchObject({ send: true });
  });
});
