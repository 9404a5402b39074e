import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";

export const hasTmux = (() => {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** A real tmux server on a private socket, with one client attached through `script`'s pty. */
export interface RealTmux {
  /** What an agent running in the first pane sees: TMUX and TMUX_PANE. */
  env: { TMUX: string; TMUX_PANE: string };
  tmux(...args: string[]): string;
  /** The attached client's terminal reports focus in (true) or out (false). */
  focus(focused: boolean): Promise<void>;
}

// Starts the server and attaches a client; both are killed when the test ends.
export async function startRealTmux(): Promise<RealTmux> {
  const dir = mkdtempSync(join(tmpdir(), "hook-notify-tmux-"));
  const socket = join(dir, "socket");
  const tmux = (...args: string[]): string =>
    execFileSync("tmux", ["-S", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  tmux("new-session", "-d", "-s", "agent", "-x", "80", "-y", "24");
  tmux("set", "-g", "focus-events", "on");
  const pane = tmux("display-message", "-p", "-t", "agent:0", "#{pane_id}").trim();
  const pid = tmux("display-message", "-p", "#{pid}").trim();
  const client = spawn("script", ["-qfc", `tmux -S '${socket}' attach -t agent`, "/dev/null"], {
    stdio: ["pipe", "ignore", "ignore"],
  });
  onTestFinished(() => {
    client.kill("SIGKILL");
    try {
      tmux("kill-server");
    } catch {
      // Already gone.
    }
    rmSync(dir, { recursive: true, force: true });
  });
  await waitFor(() => tmux("list-clients", "-F", "#{client_pid}").trim() !== "");
  return {
    env: { TMUX: `${socket},${pid},0`, TMUX_PANE: pane },
    tmux,
    focus: async (focused) => {
      client.stdin.write(focused ? "\x1b[I" : "\x1b[O");
      const want = (flags: string) => flags.split(",").includes("focused") === focused;
      await waitFor(() => want(tmux("list-clients", "-F", "#{client_flags}").trim()));
    },
  };
}

async function waitFor(check: () => boolean): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("tmux did not reach the expected state in 10 s");
}
