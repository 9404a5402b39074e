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
  } catch {
    return false;
  }
}
