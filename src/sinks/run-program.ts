import type { ChildProcess } from "node:child_process";
import { HookNotifyError } from "../errors.js";

export interface RunProgramOptions {
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  /** Wait for the exit and fail on a non-zero code; otherwise start it detached (hook path). */
  wait: boolean;
  sinkName: string;
  /** Hook path: how long to watch the detached program for an exit before leaving it running. */
  settleMs: number;
  /** What to do when the program fails, appended to the error (one sentence). */
  fix?: string | undefined;
  /** Reads the program's stdout (bounded) while it is watched; otherwise stdout is ignored. */
  onOutput?: ((text: string) => void) | undefined;
}

/** "exited": ended with code 0; "running": still running when the hook had to go on (started). */
export type ProgramResult = "exited" | "running";

// Runs a program with an argument array (never a shell): event text can only ever be an argument
// or an environment variable. On the hook path the program is started detached (it outlives the
// hook, and on Windows leaves node's job object) and watched for `settleMs`: a fast failure
// (missing, not executable, wrong architecture, non-zero exit) is reported as one.
export async function runProgram(
  path: string,
  args: readonly string[],
  options: RunProgramOptions,
): Promise<ProgramResult> {
  // Loaded here, not at the top: --dry-run and remote-only runs never pay for it.
  const { spawn } = await import("node:child_process");
  const child = spawn(path, args, {
    ...spawnOptions(options),
    // Detached, nothing of the child may hang on this process's pipes after it exits.
    stdio: ["ignore", options.onOutput ? "pipe" : "ignore", options.wait ? "pipe" : "ignore"],
  });
  return watchProgram(child, path, options);
}

// The options every program start takes (runProgram's spawn, play-sound's): no shell ever,
// detached on the hook path, killed by the deadline's signal when the caller waits.
export function spawnOptions(options: RunProgramOptions): {
  env: RunProgramOptions["env"];
  detached: boolean;
  signal: AbortSignal | undefined;
  windowsHide: true;
  shell: false;
} {
  return {
    env: options.env,
    detached: !options.wait,
    signal: options.wait ? options.signal : undefined,
    windowsHide: true,
    shell: false,
  };
}

// Reports a program someone started with spawnOptions(options): "exited" on exit 0, a
// HookNotifyError for a start that failed, an exit code or a signal; on the hook path "running"
// once it has been watched for `settleMs` (then it is left to play on, unref'd).
export function watchProgram(
  child: ChildProcess,
  path: string,
  options: RunProgramOptions,
): Promise<ProgramResult> {
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      if (stderr.length < 2000) stderr += chunk;
    });
    let stdout = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      if (stdout.length < 2000) stdout += chunk;
    });
    // Said once the program closed its stdout (or exited), with what it wrote.
    child.stdout?.on("end", () => options.onOutput?.(stdout));
    let stopWatching = (): void => undefined;
    child.on("error", (error: NodeJS.ErrnoException) => {
      stopWatching();
      reject(spawnError(path, error, options));
    });
    if (!options.wait) {
      stopWatching = watchDetached(child, options, resolve, (code, signal) => {
        reject(exitError(path, code, signal, "", options));
      });
      return;
    }
    child.on("close", (code, signal) => {
      if (code === 0) resolve("exited");
      else reject(exitError(path, code, signal, stderr, options));
    });
  });
}

// Resolves "exited" on exit 0, fails on another exit, and leaves it running ("running") once
// the settle time or the deadline is over. Returns a function that stops watching.
function watchDetached(
  child: ChildProcess,
  options: RunProgramOptions,
  resolve: (result: ProgramResult) => void,
  fail: (code: number | null, signal: NodeJS.Signals | null) => void,
): () => void {
  const stop = (): void => {
    clearTimeout(timer);
    options.signal.removeEventListener("abort", leave);
    child.removeListener("exit", onExit);
    // A program left running must not hold this process by its stdout pipe.
    if (child.exitCode === null && child.signalCode === null) child.stdout?.destroy();
    child.unref();
  };
  const leave = (): void => {
    stop();
    resolve("running");
  };
  const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
    stop();
    if (code === 0) resolve("exited");
    else fail(code, signal);
  };
  const timer = setTimeout(leave, Math.max(0, options.settleMs));
  if (options.signal.aborted) leave();
  else options.signal.addEventListener("abort", leave, { once: true });
  child.once("exit", onExit);
  return stop;
}

function spawnError(
  path: string,
  error: NodeJS.ErrnoException,
  options: RunProgramOptions,
): HookNotifyError {
  const sink = options.sinkName;
  if (error.name === "AbortError") {
    return new HookNotifyError(
      "SINK_TIMEOUT",
      `${sink}: ${path} did not finish in time and was stopped.`,
      { sink, cause: error },
    );
  }
  // macOS reports an x86_64-only program on Apple Silicon without Rosetta as errno -86 (EBADARCH).
  const why =
    error.errno === -86 ? "EBADARCH: wrong CPU architecture" : (error.code ?? error.message);
  return new HookNotifyError(
    "SINK_UNAVAILABLE",
    `${sink}: could not start ${path} (${why}).${options.fix ? ` ${options.fix}` : ""}`,
    { sink, cause: error, retryable: false },
  );
}

function exitError(
  path: string,
  code: number | null,
  signal: string | null,
  stderr: string,
  options: RunProgramOptions,
): HookNotifyError {
  const how = code === null ? `was killed by ${signal ?? "a signal"}` : `exited with code ${code}`;
  const detail = stderr.trim().split("\n")[0]?.slice(0, 200);
  const fix = options.fix ? ` ${options.fix}` : "";
  return new HookNotifyError(
    "SINK_FAILED",
    `${options.sinkName}: ${path} ${how}${detail ? `: ${detail}` : ""}.${fix}`,
    { sink: options.sinkName, retryable: false },
  );
}
