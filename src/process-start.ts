// When a process started, to tell the agent recorded with a delayed delivery (digest, "when":
// "away", an escalation's follow-up) from another process that got its pid since: a terminal
// write goes only to the terminal of the same process. Linux: field 22 of /proc/<pid>/stat (clock
// ticks after boot); macOS and the BSDs: `ps -o lstart= -p <pid>` (an argument array).
import { execFileSync } from "node:child_process";
import { procStatFields } from "./process-alive.js";

// The process's start as text, or undefined when it is gone or cannot be told.
export function processStart(pid: number, platform: NodeJS.Platform): string | undefined {
  if (!Number.isInteger(pid) || pid <= 1) return undefined;
  try {
    if (platform === "linux") return procStatFields(pid)?.[19] || undefined;
    if (platform === "win32") return undefined;
    const out = execFileSync("ps", ["-o", "lstart=", "-p", String(pid)], {
      encoding: "utf8",
      timeout: 2000,
      stdio: ["ignore", "pipe", "ignore"],
    });
    return out.trim() || undefined;
  } catch {
    return undefined;
  }
}

// The recorded agent's pid while it still runs the process recorded with it; else undefined
// (gone, its pid reused, or no start recorded): then nothing is written to a terminal.
export function sameAgent(
  pid: number | undefined,
  started: string | undefined,
  platform: NodeJS.Platform,
): number | undefined {
  if (pid === undefined || started === undefined) return undefined;
  return processStart(pid, platform) === started ? pid : undefined;
}
