// The agent's tmux pane: whether it still runs the agent that was waiting, and typing into it.
// tmux is run with argument arrays only (`send-keys -l` takes the text literally, as one
// argument), on the recorded server socket, for the recorded pane.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { processStart, sameAgent } from "../process-start.js";
import type { TmuxPane } from "../tmux-pane.js";

/** Where a reply is typed, as the hook saw it (src/presence/gate-env.ts). */
export interface ReplyPane {
  socket: string;
  pane: string;
  /** The agent's process, and when it started. */
  pid: number;
  started: string;
}

const TMUX_TIMEOUT_MS = 5000;

function tmux(socket: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "tmux",
      ["-S", socket, ...args],
      { timeout: TMUX_TIMEOUT_MS, encoding: "utf8", windowsHide: true },
      (error, stdout) => {
        if (error) reject(new Error(`tmux ${args[0] ?? ""} failed`, { cause: error }));
        else resolve(stdout);
      },
    );
  });
}

// The process in the foreground of the pane now (its terminal's foreground process group, whose
// leader the agent is: the hook's own parents are short-lived shells), with its start; undefined
// when the pane is gone or its foreground cannot be told.
export async function paneAgent(
  pane: TmuxPane,
  platform: NodeJS.Platform,
): Promise<ReplyPane | undefined> {
  let panePid: number;
  try {
    const format = "#{pane_pid}";
    panePid = Number(
      (await tmux(pane.socket, ["display-message", "-p", "-t", pane.pane, format])).trim(),
    );
  } catch {
    return undefined;
  }
  const pid = foregroundOf(panePid, platform);
  const started = pid === undefined ? undefined : processStart(pid, platform);
  if (pid === undefined || started === undefined) return undefined;
  return { ...pane, pid, started };
}

// Why typing into the pane is refused now, or undefined when the pane's foreground is still the
// agent that was waiting (the same pid, started at the same time): not a program it started
// since, not another process after the pane was closed and its number given to another.
export async function paneRefusal(
  target: ReplyPane,
  platform: NodeJS.Platform,
): Promise<string | undefined> {
  if (sameAgent(target.pid, target.started, platform) === undefined) {
    return "the agent that was waiting has ended (its process is gone, or its pid is another program's now)";
  }
  const now = await paneAgent(target, platform);
  if (now === undefined) return "the agent's tmux pane is gone";
  if (now.pid !== target.pid || now.started !== target.started) {
    return "the agent's tmux pane runs another program now";
  }
  return undefined;
}

// Types the text literally, then presses Enter: two send-keys, so no word of the text is ever
// read as a key name.
export async function typeIntoPane(target: ReplyPane, text: string): Promise<void> {
  await tmux(target.socket, ["send-keys", "-t", target.pane, "-l", text]);
  await tmux(target.socket, ["send-keys", "-t", target.pane, "Enter"]);
}

// The foreground process group of the process's terminal (Linux: field 8 of /proc/<pid>/stat;
// elsewhere `ps -o tpgid=`), or undefined.
function foregroundOf(pid: number, platform: NodeJS.Platform): number | undefined {
  if (!Number.isInteger(pid) || pid <= 1) return undefined;
  try {
    let text: string;
    if (platform === "linux") {
      const stat = readFileSync(`/proc/${String(pid)}/stat`, "utf8");
      text = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[5] ?? "";
    } else {
      const { execFileSync } = process.getBuiltinModule("node:child_process");
      text = execFileSync("ps", ["-o", "tpgid=", "-p", String(pid)], {
        encoding: "utf8",
        timeout: 2000,
        stdio: ["ignore", "pipe", "ignore"],
      });
    }
    const group = Number(text.trim());
    return Number.isInteger(group) && group > 1 ? group : undefined;
  } catch {
    return undefined;
  }
}
