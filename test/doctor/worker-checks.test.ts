// doctor's worker line: none, a dead one, and a live one with what it costs (this test process
// stands in for the worker: its pid in the lock, a real socket answering).
import { writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { checkWorker } from "../../src/doctor/worker-checks.js";
import { ensureDirs } from "../../src/outbox/store.js";
import { outboxEnv } from "../helpers/outbox-env.js";

describe("checkWorker", () => {
  it("says none runs, and how long one stays", async () => {
    const box = await outboxEnv({});
    const result = await checkWorker({
      ...box.deps,
      env: { ...box.env, HOOK_NOTIFY_WORKER_IDLE_SECONDS: "" },
    });
    expect(result).toMatchObject({ check: "worker", status: "ok" });
    expect(result.detail).toContain("none running");
    expect(result.detail).toContain("stays 600 s after its last work");
  });

  it("warns about a lock whose worker does not answer", async () => {
    const box = await outboxEnv({});
    ensureDirs(box.paths);
    const socket = join(box.paths.root, "gone.sock");
    await writeFile(box.paths.lock, JSON.stringify({ pid: 999_999_999, token: "t", socket }));
    expect(await checkWorker(box.deps)).toMatchObject({ status: "warn" });
  });

  it.runIf(process.platform === "linux")(
    "prints a live worker's memory and CPU, and when it wakes",
    async () => {
      const box = await outboxEnv({});
      ensureDirs(box.paths);
      const socket = join(box.paths.root, "w.sock");
      const server = createServer((c) => {
        c.resume().end("ok\n");
      });
      await new Promise<void>((resolve) => server.listen(socket, resolve));
      onTestFinished(
        () =>
          new Promise<void>((resolve) =>
            server.close(() => {
              resolve();
            }),
          ),
      );
      const lock = { pid: process.pid, token: "t", startedAt: Date.now(), socket };
      await writeFile(box.paths.lock, JSON.stringify(lock));
      const result = await checkWorker({
        ...box.deps,
        env: { ...box.env, HOOK_NOTIFY_WORKER_IDLE_SECONDS: "120" },
      });
      expect(result.status).toBe("ok");
      expect(result.detail).toMatch(
        new RegExp(
          `^alive \\(pid ${String(process.pid)}\\).*RSS \\d+\\.\\d MiB, CPU \\d+\\.\\d\\d s`,
        ),
      );
      expect(result.detail).toContain("wakes every 10 s");
      expect(result.detail).toContain("stays 120 s");
    },
  );
});
