// The chain of parent processes above a pid: the terminal that shows a session is one of them.
import { readFile } from "node:fs/promises";
import { runProbeProgram } from "./run-probe-program.js";

const MAX_DEPTH = 64;

/** Finds the parent of a pid; undefined when the process is gone or unknown. */
export type ParentOf = (pid: number) => Promise<number | undefined>;

// Every pid in `pids` and all their ancestors (init excluded).
export async function ancestorsOf(
  pids: readonly number[],
  parentOf: ParentOf,
): Promise<Set<number>> {
  const seen = new Set<number>();
  for (const start of pids) {
    let pid: number | undefined = start;
    for (let depth = 0; pid !== undefined && pid > 1 && depth < MAX_DEPTH; depth++) {
      if (seen.has(pid)) break;
      seen.add(pid);
      pid = await parentOf(pid);
    }
  }
  return seen;
}

// Linux: /proc/<pid>/stat, no program started.
export async function procParent(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${String(pid)}/stat`, "utf8");
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

// macOS and other Unixes: one `ps` lists every pid with its parent.
export async function psParents(env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<ParentOf> {
  const map = new Map<number, number>();
  const run = await runProbeProgram("ps", ["-A", "-o", "pid=,ppid="], { env, signal });
  for (const line of run.stdout.split("\n")) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid !== undefined && ppid !== undefined && pid > 0) map.set(pid, ppid);
  }
  return mapParents(map);
}

// A table read elsewhere (PowerShell's Win32_Process list).
export function mapParents(map: ReadonlyMap<number, number>): ParentOf {
  return (pid) => Promise.resolve(map.get(pid));
}
