// Desktop and sound are started by the worker that runs the hook's event (src/link/PROTOCOL.md),
// with the hook's display, session bus and PATH: the built binary and dist/worker.cjs as real
// processes, a fake paplay on the hook's PATH and an in-process D-Bus notification service. Nothing here measures time.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";
import { fakeBin } from "../helpers/fake-bin.js";
import { fixture, ROOT, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";

const WORKER = join(ROOT, "dist", "worker.cjs");
const outbox = (home: TempHome) => join(home.dir, "state", "hook-notify", "outbox");
const stop = () =>
  fixture("claude-code/Stop.json", { session_id: `local-${String(Math.random())}` });

const display = { DISPLAY: ":0" };

type Line = Record<string, unknown> & { outcomes?: Record<string, unknown>[] };

function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(socket);
    probe.on("connect", () => {
      probe.end("wake\n");
      resolve(true);
    });
    probe.on("error", () => {
      resolve(false);
    });
  });
}

function lockSocket(home: TempHome): string | undefined {
  try {
    const lock = JSON.parse(readFileSync(join(outbox(home), "worker.lock"), "utf8")) as {
      socket?: string;
    };
    return lock.socket;
  } catch {
    return undefined;
  }
}

// Starts dist/worker.cjs with `env` (as an earlier hook would have) and waits until it listens.
async function startWorker(home: TempHome, env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, [WORKER], { env, stdio: "ignore" });
  onTestFinished(() => {
    child.kill("SIGKILL");
  });
  await expect
    .poll(
      async () => {
        const socket = lockSocket(home);
        return socket !== undefined && (await answers(socket));
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe(true);
  return child;
}

const hookLine = (home: TempHome): Line | undefined =>
  (home.logLines() as Line[]).find((line) => line.event === "Stop");
describe("desktop and sound with a live worker", () => {
  it("are shown by the worker with the hook's display, session bus and PATH; the hook starts nothing", async () => {
    const bin = fakeBin(["paplay"]);
    const bus = await fakeNotificationBus();
    const home = tempHome({ HOOK_NOTIFY_WORKER_IDLE_SECONDS: "60" });
    // The worker's own environment: no fakes on its PATH, another display.
    await startWorker(home, {
      ...home.env,
      FAKE_BIN_LOG: bin.env.FAKE_BIN_LOG,
      DISPLAY: ":1",
    });
    const hookEnv = {
      ...home.env,
      ...bin.env,
      PATH: `${bin.dir}:${String(home.env.PATH)}`,
      DISPLAY: ":9",
      ...bus.env,
    };
    const run = await runBin(["--client", "claude-code"], { input: stop(), env: hookEnv });
    expect(run).toMatchObject({ code: 0, stdout: "" });
    // The banner on the hook's session bus (the worker's own has none), the player with its display.
    expect(await bus.waitForCalls(1, 20_000)).toHaveLength(1);
    await expect.poll(() => bin.calls().length, { timeout: 20_000 }).toBe(1);
    expect(bin.calls()[0]).toMatchObject({
      program: "paplay",
      env: { DISPLAY: ":9", ...bus.env },
    });
    // The worker ran the hook's event (PROTOCOL.md): its log line, with the programs' outcomes.
    expect(hookLine(home)).toMatchObject({ via: "worker" });
    expect(hookLine(home)?.outcomes?.map(({ sink, ok }) => ({ sink, ok }))).toEqual([
      { sink: "desktop", ok: true },
      { sink: "sound", ok: true },
    ]);
    expect(readdirSync(join(outbox(home), "pending"))).toEqual([]);
    expect(readdirSync(join(outbox(home), "events"))).toEqual([]);
  });

  it("a banner the daemon refuses is logged failed by the worker, with the daemon's error", async () => {
    const bin = fakeBin(["paplay"]);
    const bus = await fakeNotificationBus({ failWith: "org.freedesktop.DBus.Error.Failed" });
    const home = tempHome({ HOOK_NOTIFY_WORKER_IDLE_SECONDS: "60" });
    await startWorker(home, { ...home.env, FAKE_BIN_LOG: bin.env.FAKE_BIN_LOG });
    const hookEnv = {
      ...home.env,
      ...bin.env,
      ...display,
      ...bus.env,
      PATH: `${bin.dir}:${String(home.env.PATH)}`,
    };
    const run = await runBin(["--client", "claude-code"], { input: stop(), env: hookEnv });
    expect(run).toMatchObject({ code: 0, stdout: "" });
    const outcomes = hookLine(home)?.outcomes ?? [];
    expect(hookLine(home)).toMatchObject({ via: "worker" });
    expect(outcomes.find((o) => o.sink === "desktop")).toMatchObject({
      ok: false,
      code: "SINK_FAILED",
    });
    expect(String(outcomes.find((o) => o.sink === "desktop")?.error)).toContain(
      "org.freedesktop.DBus.Error.Failed",
    );
    expect(outcomes.find((o) => o.sink === "sound")).toMatchObject({ ok: true });
  });

  it("with a dead worker's lock the hook hands its event over and starts a worker, which runs it", async () => {
    const bin = fakeBin(["paplay"]);
    const bus = await fakeNotificationBus();
    const home = tempHome();
    mkdirSync(outbox(home), { recursive: true });
    const socket = join(outbox(home), "worker.0123456789abcdef.sock");
    const lock = { pid: 999_999_999, token: "dead", startedAt: Date.now(), socket };
    writeFileSync(join(outbox(home), "worker.lock"), JSON.stringify(lock));
    const hookEnv = {
      ...home.env,
      ...bin.env,
      ...display,
      ...bus.env,
      PATH: `${bin.dir}:${String(home.env.PATH)}`,
    };
    const run = await runBin(["--client", "claude-code"], { input: stop(), env: hookEnv });
    expect(run).toMatchObject({ code: 0, stdout: "" });
    expect(run.stderr).toBe("");
    expect(hookLine(home)).toMatchObject({ via: "worker" });
    const outcomes = hookLine(home)?.outcomes ?? [];
    expect(outcomes.map(({ sink, ok, queued }) => ({ sink, ok, queued }))).toEqual([
      { sink: "desktop", ok: true, queued: undefined },
      { sink: "sound", ok: true, queued: undefined },
    ]);
    // Started by the worker, which waits for a fast failure only: a loaded machine may start the
    // fakes later than that.
    await expect
      .poll(
        () =>
          bin
            .calls()
            .map((call) => call.program)
            .sort(),
        { timeout: 20_000 },
      )
      .toEqual(["paplay"]);
    expect(await bus.waitForCalls(1, 20_000)).toHaveLength(1);
    const pending = join(outbox(home), "pending");
    expect(existsSync(pending) ? readdirSync(pending) : []).toEqual([]);
  });

  it("the worker stays HOOK_NOTIFY_WORKER_IDLE_SECONDS after its last work, then leaves", async () => {
    const home = tempHome({ HOOK_NOTIFY_WORKER_IDLE_SECONDS: "3" });
    const worker = await startWorker(home, home.env);
    const exited = new Promise((resolve) => worker.on("exit", resolve));
    expect(await answers(String(lockSocket(home)))).toBe(true);
    await exited;
    expect(existsSync(join(outbox(home), "worker.lock"))).toBe(false);
    const none = tempHome({ HOOK_NOTIFY_WORKER_IDLE_SECONDS: "0" });
    const child = spawn(process.execPath, [WORKER], { env: none.env, stdio: "ignore" });
    expect(await new Promise((resolve) => child.on("exit", resolve))).toBe(0);
  });
});
