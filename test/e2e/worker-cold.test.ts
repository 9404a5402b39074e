// A cold worker's first event (issue #41): a hook that finds no worker starts one, and that worker
// runs the event's sinks before anything that can wait. The built binary and dist/worker.cjs as
// real processes; the player is a stub, and a preload in the worker reports what the worker had
// done when it started the player. Nothing here measures time.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { ROOT, fixture, runBin, tempHome } from "../helpers/run-bin.js";

const PRELOAD = join(ROOT, "test", "fixtures", "preload", "report-banner-loads.cjs");

interface AtBanner {
  builtins: string[];
  door: boolean;
}

describe("a cold worker's first event", () => {
  it("runs its sinks before node's crypto, tty, dns and perf_hooks are loaded and before the door is made; the door comes after it", async () => {
    const stubs = mkdtempSync(join(tmpdir(), "hook-notify-cold-bin-"));
    onTestFinished(() => {
      rmSync(stubs, { recursive: true, force: true });
    });
    // The player (the banner goes over the worker's own D-Bus connection), started within the
    // event's run: the preload reports as the worker starts it.
    for (const player of ["paplay", "pw-play", "aplay"]) {
      writeFileSync(join(stubs, player), "#!/bin/sh\nexit 0\n");
      chmodSync(join(stubs, player), 0o755);
    }
    const home = tempHome({ HOOK_NOTIFY_WORKER_IDLE_SECONDS: "30" });
    const report = join(home.dir, "at-banner.json");
    const env = {
      ...home.env,
      PATH: `${stubs}:${String(home.env.PATH)}`,
      DISPLAY: ":0",
      NODE_OPTIONS: `--require ${PRELOAD}`,
      HN_BANNER_LOADS_FILE: report,
    };
    home.writeConfig({ sinks: { sound: { type: "sound" } } });
    const run = await runBin(["--client", "claude-code"], {
      env,
      input: fixture("claude-code/Stop.json", { session_id: "worker-cold" }),
    });
    expect(run).toMatchObject({ code: 0, stdout: "" });
    await expect.poll(() => existsSync(report), { timeout: 20_000 }).toBe(true);
    const atBanner = JSON.parse(readFileSync(report, "utf8")) as AtBanner;
    expect(
      atBanner.builtins.filter((name) => /^(crypto|tty|dns\/promises|perf_hooks)$/.test(name)),
    ).toEqual([]);
    expect(atBanner.door).toBe(false);
    // Then the door and the stamp naming it: the next hook knocks.
    const outbox = join(home.dir, "state", "hook-notify", "outbox");
    const stampedDoor = () => {
      try {
        const { fifo } = JSON.parse(readFileSync(join(outbox, "fast.json"), "utf8")) as {
          fifo?: string;
        };
        return fifo !== undefined && existsSync(fifo);
      } catch {
        return false;
      }
    };
    await expect.poll(stampedDoor, { timeout: 20_000 }).toBe(true);
    expect(home.logLines().find((line) => line.event === "Stop")).toMatchObject({
      via: "worker",
    });
  });
});
