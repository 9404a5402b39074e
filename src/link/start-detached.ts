// Starts the background worker from a hook that must not wait (PROTOCOL.md, "cold hand-over"):
// synchronous, no lock check, no socket, nothing awaited. The worker itself settles who works:
// one that cannot take the lock wakes the holder and leaves (worker-main.ts), so a hook may start
// one whenever its knock finds no reader, and nothing it wrote before that is left behind.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

// The built worker (dist/worker.cjs) sits beside dist/cli.cjs; a test bundle may name it .js.
export function findWorkerFile(): string | undefined {
  const { fileURLToPath } = process.getBuiltinModule("node:url");
  for (const relative of ["./worker.cjs", "./worker.js", "../worker.js"]) {
    const file = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(file)) return file;
  }
  return undefined;
}

// The worker beside the running bin (bin/../dist/worker.cjs) is found without node:url (~4 M
// instructions a hook run need not spend); a bundle elsewhere asks spawn.ts.
function workerFile(): string | undefined {
  const bin = process.argv[1];
  const beside = bin === undefined ? undefined : join(dirname(bin), "..", "dist", "worker.cjs");
  return beside !== undefined && existsSync(beside) ? beside : findWorkerFile();
}

// True when a worker process was started (detached, stdio ignored, unref'd) with `env`.
export function startDetached(env: NodeJS.ProcessEnv, cwd: string): boolean {
  try {
    const file = workerFile();
    if (file === undefined) return false;
    return spawnWrapped(file, env, cwd) ?? spawnChild(file, env, cwd);
  } catch {
    return false;
  }
}

/** The part of node's process_wrap binding a detached spawn uses. */
interface ProcessWrap {
  spawn(options: Record<string, unknown>): number;
  unref(): void;
  close(): void;
  onexit: () => void;
}

// Through process_wrap, what child_process uses underneath: child_process itself would load net
// and the stream modules (~17 M instructions, a sixth of a hook run). Internal API: undefined
// where this node has no such binding, and the caller uses child_process.
function spawnWrapped(file: string, env: NodeJS.ProcessEnv, cwd: string): boolean | undefined {
  const binding = (process as { binding?: (name: string) => unknown }).binding;
  let Process: (new () => ProcessWrap) | undefined;
  try {
    Process = (binding?.("process_wrap") as { Process?: new () => ProcessWrap } | undefined)
      ?.Process;
  } catch {
    return undefined;
  }
  if (typeof Process !== "function") return undefined;
  const child = new Process();
  child.onexit = () => {
    child.close();
  };
  const ignore = { type: "ignore" };
  const error = child.spawn({
    file: process.execPath,
    args: [process.execPath, file],
    cwd,
    envPairs: Object.entries(env)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}=${String(value)}`),
    stdio: [ignore, ignore, ignore],
    detached: true,
    windowsHide: true,
    windowsVerbatimArguments: false,
  });
  if (error !== 0) return false;
  child.unref();
  return true;
}

function spawnChild(file: string, env: NodeJS.ProcessEnv, cwd: string): boolean {
  const { spawn } = process.getBuiltinModule("node:child_process");
  const child = spawn(process.execPath, [file], {
    detached: true,
    stdio: "ignore",
    env,
    cwd,
    windowsHide: true,
  });
  child.on("error", () => undefined);
  child.unref();
  return child.pid !== undefined;
}
