import { spawnSync, spawn } from "node:child_process";
import { BIN } from "./run-bin.js";

/** util-linux `script` gives the binary a real pseudo-terminal (stdin and stdout are a tty). */
export const hasScript =
  process.platform === "linux" && spawnSync("script", ["--version"]).status === 0;

/** Type `send` once the terminal has shown `after` (counted from the previous answer on). */
export interface Answer {
  after: string;
  send: string;
}

export interface PtyResult {
  code: number | null;
  /** Everything the terminal received, escapes as they are. */
  screen: string;
}

// Runs the built binary on a pseudo-terminal and answers its questions as a person would: each
// answer is typed only after its question is on the screen. Killed after 20 s.
export function runOnPty(
  args: string[],
  env: Record<string, string | undefined>,
  answers: Answer[] = [],
): Promise<PtyResult> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(" ");
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    env: { ...env, PATH: `${env.PATH ?? ""}:/usr/bin:/bin`, TERM: "xterm", COLUMNS: "100" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let screen = "";
  let seen = 0;
  const pending = [...answers];
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    screen += chunk;
    const next = pending[0];
    const at = next ? screen.indexOf(next.after, seen) : -1;
    if (!next || at < 0) return;
    pending.shift();
    seen = at + next.after.length;
    child.stdin.write(next.send);
  });
  child.stdin.on("error", () => undefined);
  const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(killer);
      child.stdin.destroy();
      resolve({ code, screen });
    }),
  );
}
