import type { Writable } from "node:stream";
import { stdinInput, type InputSource } from "./input-source.js";

/** Everything hook-notify takes from the process it runs in. Tests build one by hand. */
export interface Deps {
  stdin: InputSource;
  stdout: Writable;
  stderr: Writable;
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  /** process.arch ("arm64", "x64"): macOS picks terminal-notifier or osascript by it. */
  arch?: string | undefined;
  /** os.release(): a WSL kernel says "microsoft" in it. */
  osRelease?: string | undefined;
  cwd: string;
  homedir: string;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** The parent process (the agent, or the shell it ran the hook in): presence matches it. */
  ppid?: number | undefined;
  /** True in the background worker running a hook's event: only there may a sink keep a
   * program that outlives the event (the desktop banner's click action). */
  worker?: boolean | undefined;
}

// The only place that reads the real process; everything else receives Deps.
// `input`, when given, replaces stdin (an event passed as an argument).
export function createDeps(input?: InputSource): Deps {
  let stdin: InputSource | undefined = input;
  return {
    // Opened on first use: a command that never reads stdin (flush, doctor) must not hold a
    // terminal's stdin open, which would keep the process alive after its work is done.
    get stdin() {
      return (stdin ??= stdinInput(() => process.stdin));
    },
    // Getters: constructing process.stdout costs milliseconds the hook path does not spend.
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    env: process.env,
    platform: process.platform,
    arch: process.arch,
    get osRelease() {
      return os().release();
    },
    cwd: process.cwd(),
    homedir: homeOf(process.env, process.platform),
    now: Date.now,
    ppid: process.ppid,
  };
}

// node:os loads only when asked: it cost every worker ~0.7 M instructions (Node 20) before its
// first banner. Where HOME is set, os.homedir() returns it (POSIX; Windows reads USERPROFILE).
const os = () => process.getBuiltinModule("node:os");

function homeOf(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  return platform !== "win32" && env.HOME ? env.HOME : os().homedir();
}
