// The agent's tmux pane: whether it still runs the agent that was waiting, and typing into it.
// tmux is run with argument arrays only (`send-keys -l` takes the text literally, as one
// argument), on the recorded server socket, for the recorded pane.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { sameAgent } from "../process-start.js";

/** Where a reply is typed, as the hook saw it (src/presence/gate-env.ts). */
export interface ReplyPane {
  socket: string;
  pane: string;
  /** The agent's process, and when it started. */
  pid: number;
  started: string;
}

const PANE = /^%\d{1,9}$/;
const SOCKET = /^(\/[^,\p{Cc}]{1,1000}),\d+,\d+$/u;
const TMUX_TIMEOUT_MS = 5000;

// The pane from the recorded variables and process, or undefined when one is missing or odd.
export function replyPaneOf(gate: {
  env: Record<string, string>;
  pids: number[];
  started?: string;
}): ReplyPane | undefined {
  const socket = SOCKET.exec(gate.env.TMUX ?? "")?.[1];
  const pane = gate.env.TMUX_PANE;
  const pid = gate.pids[0];
  if (!socket || !pane || !PANE.test(pane) || pid === undefined || !gate.started) return undefined;
  return { socket, pane, pid, started: gate.started };
}

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

// Why typing into the pane is refused now, or undefined when the pane still runs the agent: the
// agent's pid still runs the process that started then, and the pane's own process is that
// agent or one of its ancestors (the pane was not closed and its number given to another).
export async function paneRefusal(
  target: ReplyPane,
  platform: NodeJS.Platform,
): Promise<string | undefined> {
  if (sameAgent(target.pid, target.started, platform) === undefined) {
    return "the agent that was waiting has ended (its process is gone, or its pid is another program's now)";
  }
  let panePid: number;
  try {
    panePid = Number(
      (
        await tmux(target.socket, ["display-message", "-p", "-t", target.pane, "#{pane_pid}"])
      ).trim(),
    );
  } catch {
    return "the agent's tmux pane is gone";
  }
  if (!ancestry(target.pid, platform).includes(panePid)) {
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

// The process and its ancestors (Linux: /proc; elsewhere `ps -o ppid=`), up to 64.
function ancestry(pid: number, platform: NodeJS.Platform): number[] {
  const chain: number[] = [];
  let current = pid;
  while (current > 1 && chain.length < 64) {
    chain.push(current);
    const parent = parentOf(current, platform);
    if (parent === undefined) break;
    current = parent;
  }
  return chain;
}

function parentOf(pid: number, platform: NodeJS.Platform): number | undefined {
  try {
    if (platform === "linux") {
      const stat = readFileSync(`/proc/${String(pid)}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    }
    const { execFileSync } = process.getBuiltinModule("node:child_process");
    const out = execFileSync("ps", ["-o", "ppid=", "-p", String(pid)], {
      encoding: "utf8",
      timeout: 2000,
      stdio: ["ignore", "pipe", "ignore"],
    });
    return Number(out.trim()) || undefined;
  } catch {
    return undefined;
  }
}
