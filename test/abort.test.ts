import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline } from "../src/abort.js";
import { bundle } from "./helpers/bundle.js";

let files: Record<string, string> = {};
let cleanup = (): Promise<void> => Promise.resolve();
beforeAll(async () => {
  ({ files, cleanup } = await bundle({ gc: "test/fixtures/abort/gc-deadline.ts" }));
}, 30_000);
afterAll(() => cleanup());

const runWithGc = (mode: string) =>
  spawnSync(process.execPath, ["--expose-gc", files.gc ?? "", mode], { encoding: "utf8" });

describe("deadline", () => {
  it("fires under garbage collection, combined with another signal", () => {
    const result = runWithGc("ours");
    expect(result.stdout).toMatch(/^aborted \d+\n$/);
    expect(result.status).toBe(0);
  });

  // The bug it replaces (nodejs/node#57736). If Node fixes it, this documents the fix: drop it.
  it.runIf(process.versions.node.startsWith("20."))(
    "is needed: AbortSignal.timeout inside AbortSignal.any can be collected and never fire",
    () => {
      expect(runWithGc("built-in").stdout).toBe("hung\n");
    },
  );

  it("aborts with a TimeoutError, follows the other signals, and clear() stops the timer", async () => {
    const timed = deadline(10);
    const reason = await new Promise((resolve) => {
      timed.signal.addEventListener("abort", () => {
        resolve(timed.signal.reason);
      });
    });
    expect((reason as DOMException).name).toBe("TimeoutError");
    const outer = new AbortController();
    const joined = deadline(60_000, outer.signal, undefined);
    outer.abort();
    expect(joined.signal.aborted).toBe(true);
    joined.clear();
    const cleared = deadline(20);
    cleared.clear();
    await new Promise((r) => setTimeout(r, 50));
    expect(cleared.signal.aborted).toBe(false);
  });
});
