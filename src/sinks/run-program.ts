import { HookNotifyError } from "../errors.js";

export interface RunProgramOptions {
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  /** Wait for the exit and fail on a non-zero code; otherwise start it detached and return. */
  wait: boolean;
  sinkName: string;
}

// Runs a program with an argument array (never a shell): event text can only ever be an argument.
export async function runProgram(
  path: string,
  args: readonly string[],
  options: RunProgramOptions,
): Promise<void> {
  // Loaded here, not at the top: --dry-run and remote-only runs never pay for it.
  const { spawn } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, {
      env: options.env,
      stdio: options.wait ? ["ignore", "ignore", "pipe"] : "ignore",
      detached: !options.wait,
      signal: options.wait ? options.signal : undefined,
      windowsHide: true,
    });
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      if (stderr.length < 2000) stderr += chunk;
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(spawnError(path, error, options.sinkName));
    });
    if (!options.wait) {
      child.unref();
      child.once("spawn", () => {
        resolve();
      });
      return;
    }
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(exitError(path, code, signal, stderr, options.sinkName));
    });
  });
}

function spawnError(path: string, error: NodeJS.ErrnoException, sink: string): HookNotifyError {
  if (error.name === "AbortError") {
    return new HookNotifyError(
      "SINK_TIMEOUT",
      `${sink}: ${path} did not finish in time and was stopped.`,
      { sink, cause: error },
    );
  }
  return new HookNotifyError(
    "SINK_UNAVAILABLE",
    `${sink}: could not start ${path} (${error.code ?? error.message}).`,
    {
      sink,
      cause: error,
      retryable: false,
    },
  );
}

function exitError(
  path: string,
  code: number | null,
  signal: string | null,
  stderr: string,
  sink: string,
): HookNotifyError {
  const how = code === null ? `was killed by ${signal ?? "a signal"}` : `exited with code ${code}`;
  const detail = stderr.trim().split("\n")[0]?.slice(0, 200);
  return new HookNotifyError(
    "SINK_FAILED",
    `${sink}: ${path} ${how}${detail ? `: ${detail}` : ""}`,
    { sink, retryable: false },
  );
}
