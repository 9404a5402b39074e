// Whether a process id still names a running process, and what Linux's /proc/<pid>/stat says of
// one. A zombie (a process that exited and that its parent has not reaped yet) runs nothing and
// holds nothing, but kill(pid, 0) succeeds on it: an agent run as a container's pid 1 never reaps
// the workers its hooks started, so each one that exits stays a zombie. Linux tells them apart
// (state Z, or X while being reaped); elsewhere signal 0 is all there is.
import { readFileSync } from "node:fs";

/** True while `pid` runs: not gone, not a zombie (Linux). Another user's process (EPERM) counts
 * as running; so does one whose /proc entry cannot be read (signal 0 said it is there). */
export function processAlive(pid: number): boolean {
  // 0 and negative numbers name process groups, not a process.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
  if (process.platform !== "linux") return true;
  const state = procStatFields(pid)?.[0];
  return state !== "Z" && state !== "X";
}

/** Linux: the fields of /proc/<pid>/stat from the third (the state) on; undefined when it cannot
 * be read. The second field, "(comm)", may hold ") " itself, so the fields start after the last. */
export function procStatFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}
