// src/process-alive.ts: a pid is alive while it runs; gone or a zombie (exited, never reaped by a
// parent such as an agent run as a container's pid 1) it is not, though kill(pid, 0) says yes.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { processAlive, procStatFields } from "../src/process-alive.js";
import { zombie } from "./helpers/zombie.js";

describe("processAlive", () => {
  it("this process is alive; one that ran and was reaped is not; 0 and negatives name no process", () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(spawnSync(process.execPath, ["-e", "0"]).pid)).toBe(false);
    for (const pid of [0, -1, 1.5, Number.NaN]) expect(processAlive(pid)).toBe(false);
  });

  it.runIf(process.platform === "linux")(
    "a zombie is not alive, though signal 0 reaches it",
    async () => {
      const pid = await zombie();
      expect(() => process.kill(pid, 0)).not.toThrow();
      expect(procStatFields(pid)?.[0]).toBe("Z");
      expect(processAlive(pid)).toBe(false);
    },
  );

  it.runIf(process.platform === "linux")(
    "/proc/<pid>/stat's fields count from the state, after the last ')' of the command's name",
    () => {
      const fields = procStatFields(process.pid);
      expect(fields?.[0]).toMatch(/^[RS]$/);
      expect(Number(fields?.[1])).toBe(process.ppid);
      expect(procStatFields(spawnSync(process.execPath, ["-e", "0"]).pid)).toBeUndefined();
    },
  );
});
