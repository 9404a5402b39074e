import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { onTestFinished } from "vitest";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const BIN = join(ROOT, "bin", "hook-notify.cjs");
export const FIXTURES = join(ROOT, "test", "fixtures", "events");

/** A test home's PATH: node's own folder, and the system folder that holds mkfifo (the worker
 * makes its FIFO with it, src/link/offer.ts). Where node is the system's both are /usr/bin; a
 * node from elsewhere (CI's Node matrix: 22, 24, 26 from the registry) gets the same programs. */
export const NODE_PATH = [
  ...new Set([
    dirname(process.execPath),
    ...["/usr/bin", "/bin"].filter((dir) => existsSync(join(dir, "mkfifo"))).slice(0, 1),
  ]),
].join(delimiter);

export interface BinResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface RunBinOptions {
  /** Text for stdin. */
  input?: string | Buffer;
  /** Keep stdin open and empty instead (a client that never closes the pipe). */
  neverClose?: boolean;
  env?: Record<string, string | undefined>;
  /** Write the input only after this long (a slow client on a loaded machine). */
  inputDelayMs?: number;
  /** Kill the process after this long (the test then sees signal SIGKILL). */
  killAfterMs?: number;
  /** Another copy of bin/hook-notify.cjs to run (a package copy with fake vendored programs). */
  bin?: string;
  /** False: return as soon as the process ends, even if a worker still has its event to run. */
  settle?: boolean;
  /** The folder the hook runs in (default: this process's). */
  cwd?: string;
}

// Runs the BUILT binary (npm run build) as a client would: argv, stdin, env; collects everything.
export function runBin(args: string[], options: RunBinOptions = {}): Promise<BinResult> {
  const started = performance.now();
  const child = spawn(process.execPath, [options.bin ?? BIN, ...args], {
    env: options.env as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "pipe"],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  child.stdin.on("error", () => undefined); // EPIPE when the binary refuses a huge input
  if (options.inputDelayMs !== undefined) {
    setTimeout(() => child.stdin.end(options.input ?? ""), options.inputDelayMs);
  } else if (!options.neverClose) child.stdin.end(options.input ?? "");
  const killer = setTimeout(() => child.kill("SIGKILL"), options.killAfterMs ?? 20_000);
  return new Promise<BinResult>((resolve) => {
    child.on("close", (code, signal) => {
      clearTimeout(killer);
      if (options.neverClose) child.stdin.destroy();
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started });
    });
  }).then(async (result) => {
    if (options.settle !== false) await handedOverRun(options.env);
    return result;
  });
}

// A hook hands its event to a worker and exits (src/link/PROTOCOL.md): what a test then checks
// (the log line, the programs started) is the worker's run. It is over when the event's file is
// gone from events/ (the worker deletes it after running and logging it). Bounded: a test that
// stops the worker on purpose passes `settle: false`.
export async function handedOverRun(
  env: Record<string, string | undefined> | undefined,
): Promise<void> {
  const state = env?.XDG_STATE_HOME;
  if (state === undefined) return;
  const events = join(state, "hook-notify", "outbox", "events");
  for (const giveUpAt = Date.now() + 30_000; Date.now() < giveUpAt;) {
    let names: string[];
    try {
      names = readdirSync(events);
    } catch {
      return;
    }
    if (names.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface TempHome {
  dir: string;
  env: Record<string, string | undefined>;
  /** The run log's lines, parsed. */
  logLines(): Record<string, unknown>[];
  writeConfig(config: unknown): string;
}

// A detached worker of this HOME may still be delivering or writing its last log line: ask every
// live one to yield (finish and exit, as `flush` does), then remove the folder, retrying while a
// worker (or an agent client just stopped) is still writing. The bound is generous because CI
// runs this beside CPU burners.
export async function removeHome(dir: string): Promise<void> {
  let sockets: string[] = [];
  try {
    sockets = (readdirSync(dir, { recursive: true }) as string[]).filter((name) =>
      /(^|\/)worker\.[0-9a-f]+\.sock$/.test(name),
    );
  } catch {
    // nothing there: nothing to ask
  }
  await Promise.all(sockets.map((name) => askToYield(join(dir, name))));
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

function askToYield(path: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const done = () => {
      socket.destroy();
      resolve();
    };
    socket.setTimeout(2_000, done);
    socket.on("connect", () => socket.end("yield\n", done));
    socket.on("error", done);
  });
}

// A throwaway HOME with XDG dirs, removed after the test; PATH is NODE_PATH.
export function tempHome(extraEnv: Record<string, string | undefined> = {}): TempHome {
  const dir = mkdtempSync(join(tmpdir(), "hook-notify-e2e-"));
  onTestFinished(() => removeHome(dir));
  const env = {
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_STATE_HOME: join(dir, "state"),
    PATH: NODE_PATH,
    NO_PROXY: "127.0.0.1,localhost",
    // The same answer on a laptop and in a CI container: desktop and sound are attempted. Tests
    // of the SSH and container rules set it to "0".
    HOOK_NOTIFY_LOCAL_SINKS: "1",
    // A worker leaves when its work is done, as before issue #19's lingering (tests of the stay
    // set it): a test that waits for the worker's lock to go must not wait ten minutes.
    HOOK_NOTIFY_WORKER_IDLE_SECONDS: "0",
    ...extraEnv,
  };
  const logFile = join(dir, "state", "hook-notify", "log.ndjson");
  return {
    dir,
    env,
    logLines: () => {
      try {
        return readFileSync(logFile, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      } catch {
        return [];
      }
    },
    writeConfig: (config) => {
      const file = join(dir, "config", "hook-notify", "config.json");
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, typeof config === "string" ? config : JSON.stringify(config, null, 2));
      return file;
    },
  };
}

// A fixture payload, optionally with fields replaced.
export function fixture(name: string, patch: Record<string, unknown> = {}): string {
  const raw = JSON.parse(readFileSync(join(FIXTURES, name), "utf8")) as Record<string, unknown>;
  return JSON.stringify({ ...raw, ...patch });
}
