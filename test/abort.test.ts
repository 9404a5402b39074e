import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline, withDeadline } from "../src/abort.js";
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

describe("one deadline primitive", () => {
  // approve waited past approveSeconds on an AbortSignal.timeout inside AbortSignal.any (issue 25).
  it("no module but src/abort.ts makes a timeout signal or combines signals by itself", () => {
    const src = join(import.meta.dirname, "..", "src");
    const offenders = (readdirSync(src, { recursive: true }) as string[])
      .filter((name) => name.endsWith(".ts") && name !== "abort.ts")
      .filter((name) => /AbortSignal\.(timeout|any)\(/.test(readFileSync(join(src, name), "utf8")));
    expect(offenders).toEqual([]);
  });

  it("withDeadline hands the work a signal that fires, and frees the timer when the work ends", async () => {
    const reason = await withDeadline(
      10,
      (signal) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => {
            resolve(signal.reason);
          });
        }),
    );
    expect((reason as DOMException).name).toBe("TimeoutError");
    let kept: AbortSignal | undefined;
    await withDeadline(20, (signal) => {
      kept = signal;
      return Promise.resolve();
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(kept?.aborted).toBe(false);
  });
});
