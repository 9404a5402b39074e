import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { onTestFinished } from "vitest";

/** The fake programs in test/fixtures/bin (node scripts that log their argv). */
export type FakeProgram =
  | "paplay"
  | "pw-play"
  | "aplay"
  | "play"
  | "ffplay"
  | "mpv"
  | "afplay"
  | "say"
  | "spd-say"
  | "kitty"
  | "wezterm"
  | "zellij"
  | "osascript"
  | "terminal-notifier"
  | "powershell.exe"
  | "wslpath"
  | "arch"
  | "reg.exe";

/** One start of a fake program, as it logged itself. */
export interface FakeCall {
  program: string;
  args: string[];
  /** Its HOOK_NOTIFY_* variables, WSLENV, DISPLAY, WAYLAND_DISPLAY, DBUS_SESSION_BUS_ADDRESS. */
  env: Record<string, string>;
  pid: number;
  /** True once the program logged its end (after FAKE_BIN_SLEEP_MS). */
  finished: boolean;
}

export interface FakeBin {
  /** The directory that is the whole test PATH. */
  dir: string;
  /** A file beside the bin dir, for canaries and scratch data. */
  scratch: (name: string) => string;
  /** The env the sink gets: PATH (only the chosen programs and node), FAKE_BIN_LOG, extras. */
  env: Record<string, string>;
  /** Every start of a fake, in order. */
  calls(): FakeCall[];
}

export interface FakeBinOptions {
  /** Exit code of every fake (FAKE_BIN_EXIT). */
  exitCode?: number;
  /** How long every fake runs before exiting (FAKE_BIN_SLEEP_MS). */
  sleepMs?: number;
  /** Real programs (absolute paths) linked into the PATH dir under their own names. */
  real?: Record<string, string>;
  /** More env entries for the sink. */
  env?: Record<string, string>;
}

const FIXTURES = fileURLToPath(new URL("../fixtures/bin/", import.meta.url));

// A temp PATH holding only the chosen fakes, plus `node` (their interpreter via /usr/bin/env).
// Removed, and any fake still running killed by its pid, when the test finishes.
export function fakeBin(programs: readonly FakeProgram[], options: FakeBinOptions = {}): FakeBin {
  const root = mkdtempSync(join(tmpdir(), "hook-notify-bin-"));
  const dir = join(root, "bin");
  const log = join(root, "calls.ndjson");
  writeFileSync(log, "");
  mkdirSync(dir);
  if (programs.length > 0) symlinkSync(process.execPath, join(dir, "node"));
  for (const name of programs) symlinkSync(join(FIXTURES, name), join(dir, name));
  for (const [name, target] of Object.entries(options.real ?? {})) {
    symlinkSync(target, join(dir, name));
  }
  const env: Record<string, string> = {
    PATH: dir,
    FAKE_BIN_LOG: log,
    ...(options.exitCode === undefined ? {} : { FAKE_BIN_EXIT: String(options.exitCode) }),
    ...(options.sleepMs === undefined ? {} : { FAKE_BIN_SLEEP_MS: String(options.sleepMs) }),
    ...options.env,
  };
  const calls = (): FakeCall[] => readCalls(log);
  onTestFinished(() => {
    for (const call of calls()) if (!call.finished) killQuietly(call.pid);
    rmSync(root, { recursive: true, force: true });
  });
  return { dir, scratch: (name) => join(root, name), env, calls };
}

function readCalls(log: string): FakeCall[] {
  if (!existsSync(log)) return [];
  const lines = readFileSync(log, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Partial<FakeCall> & { pid: number; program: string });
  const finished = new Set(lines.filter((line) => line.finished).map((line) => line.pid));
  return lines
    .filter((line) => line.args !== undefined)
    .map((line) => ({
      program: line.program,
      args: line.args ?? [],
      env: line.env ?? {},
      pid: line.pid,
      finished: finished.has(line.pid),
    }));
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}
