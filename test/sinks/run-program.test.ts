import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runProgram, type RunProgramOptions } from "../../src/sinks/run-program.js";
import { fakeBin } from "../helpers/fake-bin.js";

const isLinux = process.platform === "linux";

function options(env: Record<string, string>, extra: Partial<RunProgramOptions> = {}) {
  return {
    env,
    signal: AbortSignal.timeout(20_000),
    wait: false,
    sinkName: "desk",
    settleMs: 15_000,
    fix: "Do the fix.",
    ...extra,
  };
}

// The hook path: started detached, watched for settleMs; what it saw is what it reports.
describe.runIf(isLinux)("runProgram on the hook path (detached, watched)", () => {
  it("is exited for a program that ends with code 0 while watched", async () => {
    const bin = fakeBin(["paplay"]);
    const path = join(bin.dir, "paplay");
    await expect(runProgram(path, ["a"], options(bin.env))).resolves.toBe("exited");
  });

  it("is SINK_FAILED with the fix for a non-zero exit while watched", async () => {
    const bin = fakeBin(["paplay"], { exitCode: 4 });
    const error = await runProgram(join(bin.dir, "paplay"), [], options(bin.env)).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "SINK_FAILED", sink: "desk", retryable: false });
    expect((error as Error).message).toMatch(/exited with code 4\. Do the fix\.$/);
  });

  it.each([
    ["missing (ENOENT)", "ENOENT", (dir: string) => join(dir, "nowhere")],
    [
      "not executable (EACCES)",
      "EACCES",
      (dir: string) => {
        const file = join(dir, "plain");
        writeFileSync(file, "#!/bin/sh\nexit 0\n");
        chmodSync(file, 0o644);
        return file;
      },
    ],
  ])("is SINK_UNAVAILABLE with the fix for a program that is %s", async (_n, code, make) => {
    const bin = fakeBin([]);
    const error = await runProgram(make(bin.dir), [], options(bin.env)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "SINK_UNAVAILABLE" });
    expect((error as Error).message).toContain(`(${code}). Do the fix.`);
  });

  it("is running (started, not delivered) for a program still running when the watch ends", async () => {
    const bin = fakeBin(["paplay"], { sleepMs: 30_000 });
    const result = await runProgram(join(bin.dir, "paplay"), [], {
      ...options(bin.env),
      settleMs: 100,
    });
    expect(result).toBe("running");
  });

  it("is running when the deadline ends the watch first, and leaves the program alone", async () => {
    const bin = fakeBin(["paplay"], { sleepMs: 30_000 });
    const result = await runProgram(join(bin.dir, "paplay"), [], {
      ...options(bin.env),
      signal: AbortSignal.timeout(100),
    });
    expect(result).toBe("running");
    await expect.poll(() => bin.calls()).toHaveLength(1);
    expect(bin.calls()[0]?.finished).toBe(false);
  });
});
