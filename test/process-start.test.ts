// Issue 38 (redteam F9): a delayed terminal delivery (digest, "when": "away", a follow-up) writes
// to the recorded agent's terminal only while that pid still runs the same process. Real processes.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { presenceGate } from "../src/presence/gate-env.js";
import { processStart, sameAgent } from "../src/process-start.js";
import type { Deps } from "../src/deps.js";

const supported = process.platform !== "win32";

describe.runIf(supported)("the recorded agent is still the same process", () => {
  it("tells a live process's start, the same each time; nothing for a gone one", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    const pid = child.pid ?? 0;
    const started = processStart(pid, process.platform);
    expect(started).toMatch(/\S/);
    expect(processStart(pid, process.platform)).toBe(started);
    expect(sameAgent(pid, started, process.platform)).toBe(pid);
    child.kill("SIGKILL");
    await once(child, "exit");
    expect(processStart(pid, process.platform)).toBeUndefined();
    expect(sameAgent(pid, started, process.platform)).toBeUndefined();
  });

  it("refuses a pid whose start differs (reused), and a gate without a recorded start", () => {
    const started = processStart(process.pid, process.platform);
    expect(sameAgent(process.pid, `${String(started)}1`, process.platform)).toBeUndefined();
    expect(sameAgent(process.pid, undefined, process.platform)).toBeUndefined();
    expect(sameAgent(undefined, started, process.platform)).toBeUndefined();
  });

  it("the hook records the agent's start with its pid", () => {
    const deps = { env: {}, platform: process.platform, ppid: process.pid } as unknown as Deps;
    const gate = presenceGate(deps, 60);
    expect(gate.pids[0]).toBe(process.pid);
    expect(gate.started).toBe(processStart(process.pid, process.platform));
    expect(sameAgent(gate.pids[0], gate.started, process.platform)).toBe(process.pid);
  });
});
