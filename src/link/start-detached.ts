// Starts the background worker from a hook that must not wait (PROTOCOL.md, "cold hand-over"):
// synchronous, no lock check, no socket, nothing awaited. The worker itself settles who works:
// one that cannot take the lock wakes the holder and leaves (worker-main.ts), so a hook may start
// one whenever its knock finds no reader, and nothing it wrote before that is left behind.
import { existsSync } from "node:fs";
import { sep } from "node:path";
import { withAbsolutePaths } from "./hook-env.js";
import { claimStart, type StartClaim } from "./start-claim.js";

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
// instructions a hook run need not spend) and without path.join's normalizing walk (node made
// argv[1] absolute and normal); a bundle elsewhere asks spawn.ts.
function workerFile(): string | undefined {
  const bin = process.argv[1];
  const root = bin?.slice(0, bin.lastIndexOf(sep, bin.lastIndexOf(sep) - 1));
  const beside = root ? `${root}${sep}dist${sep}worker.cjs` : undefined;
  return beside !== undefined && existsSync(beside) ? beside : findWorkerFile();
}

// True when a worker process was started (detached, stdio ignored, unref'd) with `env`: through
// child_process, the one public API that starts a process (it loads net and the stream modules,
// ~12 M instructions, paid only by a hook that finds no worker). A spawn that fails (no such
// node, EAGAIN, ENOMEM) leaves no pid: false, and the caller runs the event itself.
// `claim`: the start claim's file (start-claim.ts), taken just before the spawn (child_process
// already loaded: the claim stands for as short a time as it can before the worker exists).
export function startDetached(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  worker?: string,
  claim?: string,
): boolean {
  let claimed: StartClaim | undefined;
  try {
    const file = worker ?? workerFile();
    if (file === undefined) return false;
    const { spawn } = process.getBuiltinModule("node:child_process");
    if (claim !== undefined) claimed = claimStart(claim);
    // Its own config and folders from the same places as the hook's, wherever it runs later.
    const child = spawn(process.execPath, [file], {
      detached: true,
      stdio: "ignore",
      env: withAbsolutePaths(env, cwd),
      cwd,
      windowsHide: true,
    });
    child.on("error", () => undefined);
    child.unref();
    claimed?.started(child.pid);
    return child.pid !== undefined;
  } catch {
    claimed?.started(undefined);
    return false;
  }
}
