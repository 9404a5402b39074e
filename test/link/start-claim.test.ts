// The start claim (src/link/start-claim.ts, PROTOCOL.md "a hook", step 3): one worker start at a
// time, taken over when its pid is dead, never brought back once a worker removed it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { claimStart, removeClaim, startPending } from "../../src/link/start-claim.js";
import { zombie } from "../helpers/zombie.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function claimFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "hn-start-claim-"));
  dirs.push(dir);
  return join(dir, "worker.starting");
}

// A pid that was alive and is not any more (a process that ran and was reaped).
const deadPid = (): number => spawnSync(process.execPath, ["-e", "0"]).pid;

describe("the start claim", () => {
  it("while its hook or its worker lives, no other start; the worker's removal ends it", () => {
    const file = claimFile();
    expect(startPending(file)).toBe(false);
    const claim = claimStart(file);
    expect(claim).toBeDefined();
    expect(startPending(file)).toBe(true); // the hook (this process) lives
    expect(claimStart(file)).toBeUndefined();
    claim?.started(process.pid); // "the worker" here is this process too: alive
    expect(readFileSync(file, "utf8")).toBe(`a${String(process.pid)}\nw${String(process.pid)}\n`);
    removeClaim(file); // the worker's first step
    expect(startPending(file)).toBe(false);
  });

  it("a claim whose last pid is dead is taken over", () => {
    const file = claimFile();
    writeFileSync(file, `a${String(process.pid)}\nw${String(deadPid())}\n`);
    expect(startPending(file)).toBe(false);
    const claim = claimStart(file);
    expect(claim).toBeDefined();
    expect(readFileSync(file, "utf8")).toBe(`a${String(process.pid)}\n`);
    claim?.started(undefined); // no worker could be started: the claim goes
    expect(existsSync(file)).toBe(false);
  });

  it.runIf(process.platform === "linux")(
    "a claim whose worker died before its look and is a zombie (never reaped) is taken over",
    async () => {
      const file = claimFile();
      writeFileSync(file, `a${String(process.pid)}\nw${String(await zombie())}\n`);
      expect(startPending(file)).toBe(false);
      expect(claimStart(file)).toBeDefined();
    },
  );

  it("a worker that removed the claim before its hook wrote the pid is not brought back", () => {
    const file = claimFile();
    const claim = claimStart(file);
    removeClaim(file);
    claim?.started(process.pid);
    expect(existsSync(file)).toBe(false);
  });
});
