// The sweep of dead workers' doors (src/worker/door-sweep.ts), with real processes: a FIFO and a
// socket whose worker was killed go; a FIFO a live process holds open, a socket a live process
// listens on, the sweeping worker's own doors and a file that only has a door's name stay.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { sweepDeadDoors } from "../../src/worker/door-sweep.js";

function outbox(): string {
  // Short: a socket's path must fit in sun_path.
  const dir = mkdtempSync(join(tmpdir(), "hn-doors-"));
  onTestFinished(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

function mkfifo(path: string): void {
  expect(spawnSync("mkfifo", ["-m", "600", path]).status).toBe(0);
}

// A process that holds `fifo` open read+write (as a worker's door) or listens on `socket`, and
// says "ready" once it does.
function holder(script: string, path: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["-e", script, path], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  onTestFinished(() => {
    child.kill("SIGKILL");
  });
  return new Promise((resolve, reject) => {
    child.stdout.once("data", () => {
      resolve(child);
    });
    child.once("exit", (code) => {
      reject(new Error(`the holder exited (${String(code)}) before it was ready`));
    });
  });
}

const HOLD_FIFO = `const fs = require("fs"); fs.openSync(process.argv[1], fs.constants.O_RDWR | fs.constants.O_NONBLOCK); console.log("ready"); setInterval(() => {}, 1000);`;
const LISTEN = `require("net").createServer((s) => s.end("ok\\n")).listen(process.argv[1], () => console.log("ready"));`;

async function killed(child: ChildProcess): Promise<void> {
  const gone = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await gone;
}

describe.runIf(process.platform === "linux")("dead workers' doors", () => {
  it("go when their worker was killed; live ones, the sweeper's own and strangers stay", async () => {
    const root = outbox();
    const own = "00000001aaaa0000";
    const path = (token: string, kind: "fifo" | "sock") => join(root, `worker.${token}.${kind}`);
    // Killed workers: a FIFO nobody opened again, a socket left by a process killed while listening.
    mkfifo(path("00000002bbbb0000", "fifo"));
    await killed(await holder(LISTEN, path("00000002bbbb0000", "sock")));
    expect(existsSync(path("00000002bbbb0000", "sock"))).toBe(true);
    // A live worker's doors.
    mkfifo(path("00000003cccc0000", "fifo"));
    await holder(HOLD_FIFO, path("00000003cccc0000", "fifo"));
    const server = createServer((socket) => socket.end("ok\n"));
    await new Promise<void>((resolve) => server.listen(path("00000003cccc0000", "sock"), resolve));
    onTestFinished(() => {
      server.close();
    });
    // The sweeper's own door, made but not open yet; a file with a FIFO's name; other files.
    mkfifo(path(own, "fifo"));
    writeFileSync(path("00000004dddd0000", "fifo"), "not a FIFO");
    writeFileSync(join(root, "worker.lock"), "{}");

    expect(await sweepDeadDoors(root, own)).toBe(2);
    expect(readdirSync(root).sort()).toEqual(
      [
        "worker.00000001aaaa0000.fifo",
        "worker.00000003cccc0000.fifo",
        "worker.00000003cccc0000.sock",
        "worker.00000004dddd0000.fifo",
        "worker.lock",
      ].sort(),
    );
    // A second sweep finds nothing more to remove, and a missing folder is no error.
    expect(await sweepDeadDoors(root, own)).toBe(0);
    expect(await sweepDeadDoors(join(root, "none"), own)).toBe(0);
  });
});
