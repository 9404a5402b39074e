// A worker that runs a handed-over event never wakes itself: what the event queues is sent by the
// round it is in (worker-main.ts drains after runEvents), not after a "wake" to its own socket.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeEvent } from "../../src/link/inbox.js";
import { listenForWake } from "../../src/link/wake.js";
import { ensureDirs } from "../../src/outbox/store.js";
import { runEvents } from "../../src/worker/run-events.js";
import { outboxEnv } from "../helpers/outbox-env.js";

const POSIX = process.platform !== "win32";

describe.runIf(POSIX)("runEvents in a worker's round", () => {
  it("queues the event's webhook for this round and sends no message to the worker's socket", async () => {
    const box = await outboxEnv({ hook: { type: "webhook", url: "http://127.0.0.1:9/hook" } });
    ensureDirs(box.paths);
    // This process plays the worker: it holds the lock and listens on the socket the lock names.
    const socket = join(box.paths.root, "worker.test.sock");
    const messages: string[] = [];
    const server = await listenForWake(socket, (message) => messages.push(message) > 0);
    expect(server).toBeDefined();
    writeFileSync(box.paths.lock, JSON.stringify({ pid: process.pid, token: "t", socket }));
    writeEvent(box.paths, {
      version: 1,
      build: "test",
      args: { config: box.configPath, client: "claude-code", timeout: 10 },
      payload: JSON.stringify({ hook_event_name: "Stop", session_id: "s-1", cwd: box.home }),
      receivedAt: box.deps.now(),
      cwd: box.home,
      ppid: process.pid,
      // The hook's variables, as it carries them (link/hook-env.ts): the same state folder.
      env: box.env,
    });
    const ran = await runEvents(box.deps, box.paths, () => undefined, {
      queuedFor: "this-round",
    });
    await new Promise<void>((resolve) => {
      server?.close(() => {
        resolve();
      });
    });
    expect(ran).toBe(1);
    expect(await box.files("pending")).toHaveLength(1);
    expect(messages).toEqual([]);
  });

  it("runs the event as the notification the hook named; an id that is not one is quarantined", async () => {
    const box = await outboxEnv({ hook: { type: "webhook", url: "http://127.0.0.1:9/hook" } });
    ensureDirs(box.paths);
    const event = (id: string) => ({
      version: 1 as const,
      build: "test",
      args: { config: box.configPath, client: "claude-code" as const, timeout: 10 },
      payload: JSON.stringify({ hook_event_name: "Stop", session_id: id, cwd: box.home }),
      id,
      receivedAt: box.deps.now(),
      cwd: box.home,
      ppid: process.pid,
      env: box.env,
    });
    const id = "0b7e0f4c-5a1d-4e2b-9c3f-6d8a7b1e2f30";
    writeEvent(box.paths, event(id));
    writeEvent(box.paths, event("../../escape"));
    const ran = await runEvents(box.deps, box.paths, () => undefined, {
      queuedFor: "this-round",
    });
    expect(ran).toBe(1);
    const pending = await box.files("pending");
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ notification: { id } });
    expect(String(pending[0]?.key)).toMatch(new RegExp(`^${id}\\.hook\\.`));
    expect(await box.files("corrupt")).toHaveLength(1);
  });
});
