// Runs one probe program: an argv array (never a shell), a short timeout, and failure as data.
import { execFile, type ExecFileException } from "node:child_process";
import { PROBE_TIMEOUT_MS } from "../core/defaults.js";

export interface ProbeRun {
  /** True when the program ran and exited 0. */
  ok: boolean;
  stdout: string;
  /** Why it did not work: "not installed", "timed out", "exit 1: …". */
  problem?: string | undefined;
  ms: number;
}

export interface ProbeRunOptions {
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  timeoutMs?: number | undefined;
}

export function runProbeProgram(
  file: string,
  args: readonly string[],
  options: ProbeRunOptions,
): Promise<ProbeRun> {
  // Not performance.now(): its first use loads perf_hooks (~1 ms), and a cold worker reads Do Not
  // Disturb through here before its first banner (issue #41).
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const done = (run: Omit<ProbeRun, "ms">): void => {
      resolve({ ...run, ms: Math.round(Number(process.hrtime.bigint() - started) / 1e6) });
    };
    if (options.signal.aborted) {
      done({ ok: false, stdout: "", problem: "cancelled" });
      return;
    }
    const child = execFile(
      file,
      args,
      {
        env: options.env,
        signal: options.signal,
        timeout: options.timeoutMs ?? PROBE_TIMEOUT_MS,
        maxBuffer: 4 << 20,
        windowsHide: true,
        encoding: "utf8",
      },
      (error, stdout, stderr) => {
        if (!error) done({ ok: true, stdout });
        else done({ ok: false, stdout, problem: describeFailure(error, stderr) });
      },
    );
    child.stdin?.end();
  });
}

function describeFailure(error: ExecFileException, stderr: string): string {
  if (error.code === "ENOENT") return "not installed";
  if (error.name === "AbortError") return "cancelled";
  if (error.killed) return "timed out";
  const line = stderr.trim().split("\n")[0]?.slice(0, 120) ?? "";
  const code = typeof error.code === "number" ? `exit ${String(error.code)}` : "failed";
  return line ? `${code}: ${line}` : code;
}
