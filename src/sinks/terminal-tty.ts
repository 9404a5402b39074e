// The agent's own terminal: the tty device of the nearest ancestor of the hook (the agent, or
// the shell it ran the hook in) that has a controlling terminal and holds it open. The worker
// that runs the sink is detached from every terminal; the hook's parent pid reaches it with the
// event (link/hook-env.ts, deps.ppid), and the agent's process outlives the hook.
// Linux: /proc/<pid>/stat's tty_nr (field 7) says which terminal controls the process, and
// /proc/<pid>/fd/0..2 which device file that is (same device number). macOS: one `ps` lists each
// process's parent and terminal name ("ttys003", "??" for none).
import { constants } from "node:fs";
import { open, readFile, readlink, stat } from "node:fs/promises";
import type { Deps } from "../deps.js";
import { HookNotifyError } from "../errors.js";
import { findProgram } from "./find-program.js";

const MAX_DEPTH = 32;

/** Where a tty was found, for the log: its device file and the process that holds it. */
export interface AgentTty {
  path: string;
  pid: number;
}

type TtyDeps = Pick<Deps, "env" | "platform" | "ppid">;

// The agent's terminal, or undefined when no ancestor has one (an IDE, a CI job, a pipe).
export async function findAgentTty(
  deps: TtyDeps,
  signal: AbortSignal,
): Promise<AgentTty | undefined> {
  const start = deps.ppid ?? 0;
  if (start <= 1) return undefined;
  if (deps.platform === "linux") return procTty(start);
  if (deps.platform === "darwin" || deps.platform === "freebsd" || deps.platform === "openbsd")
    return psTty(start, deps, signal);
  return undefined;
}

async function procTty(start: number): Promise<AgentTty | undefined> {
  let pid = start;
  for (let depth = 0; pid > 1 && depth < MAX_DEPTH; depth++) {
    const stat = await readFile(`/proc/${String(pid)}/stat`, "utf8").catch(() => undefined);
    if (stat === undefined) return undefined;
    // "pid (comm) state ppid pgrp session tty_nr …": comm may hold ") ", so split after the last.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ttyNr = Number(fields[4]);
    if (ttyNr > 0) {
      const path = await heldDevice(pid, ttyNr);
      if (path) return { path, pid };
    }
    pid = Number(fields[1]);
  }
  return undefined;
}

// The device file among fds 0..2 of `pid` whose device number is `ttyNr` (its terminal).
async function heldDevice(pid: number, ttyNr: number): Promise<string | undefined> {
  for (const fd of [0, 1, 2]) {
    const path = await readlink(`/proc/${String(pid)}/fd/${String(fd)}`).catch(() => undefined);
    if (!path?.startsWith("/dev/")) continue;
    const info = await stat(path).catch(() => undefined);
    if (info?.isCharacterDevice() && info.rdev === ttyNr) return path;
  }
  return undefined;
}

async function psTty(
  start: number,
  deps: TtyDeps,
  signal: AbortSignal,
): Promise<AgentTty | undefined> {
  const ps = findProgram("ps", deps.env, deps.platform) ?? "/bin/ps";
  const { execFile } = await import("node:child_process");
  const listing = await new Promise<string>((resolve) => {
    execFile(
      ps,
      ["-A", "-o", "pid=,ppid=,tty="],
      { env: deps.env, signal, timeout: 3000, maxBuffer: 4 << 20 },
      (error, stdout) => {
        resolve(error ? "" : stdout);
      },
    );
  });
  const table = new Map<number, { ppid: number; tty: string }>();
  for (const line of listing.split("\n")) {
    const [pid, ppid, tty] = line.trim().split(/\s+/);
    if (pid && ppid && tty) table.set(Number(pid), { ppid: Number(ppid), tty });
  }
  let pid = start;
  for (let depth = 0; pid > 1 && depth < MAX_DEPTH; depth++) {
    const row = table.get(pid);
    if (!row) return undefined;
    if (/^[A-Za-z0-9/]+$/.test(row.tty) && row.tty !== "??") {
      return { path: `/dev/${row.tty.startsWith("tty") ? row.tty : `tty${row.tty}`}`, pid };
    }
    pid = row.ppid;
  }
  return undefined;
}

// Writes to the terminal device, never through stdout: opened write-only, without becoming its
// controlling process (O_NOCTTY), and non-blocking, so a terminal that reads nothing (suspended,
// its buffer full) fails the write instead of holding the worker.
export async function writeToTty(tty: AgentTty, text: string, sinkName: string): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_NOCTTY | constants.O_NONBLOCK;
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(tty.path, flags);
    const bytes = Buffer.from(text, "utf8");
    const { bytesWritten } = await handle.write(bytes);
    if (bytesWritten !== bytes.length)
      throw new Error(`wrote ${String(bytesWritten)} of ${String(bytes.length)} bytes`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new HookNotifyError(
      "SINK_FAILED",
      `${sinkName}: could not write to the agent's terminal ${tty.path} (${code}).`,
      { sink: sinkName, cause: error, retryable: false },
    );
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
