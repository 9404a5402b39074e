// `hook-notify flush`'s work: drain the outbox with its lock, or ask a busy worker to hand it
// over and drain then; one line per delivery and a summary, or one JSON object (--json).
import { createDeps } from "../deps.js";
import { exitWhenDone } from "../exit.js";
import { whileLocked, lockSocket } from "../link/lock.js";
import { processOwner, startWorker } from "../link/spawn.js";
import { sendWake } from "../link/wake.js";
import { outboxPaths, type OutboxPaths } from "../outbox/paths.js";
import { ensureDirs } from "../outbox/store.js";
import { releaseHeld } from "../delivery/coalesce-groups.js";
import { drainOutbox, type FlushArgs } from "./flush-drain.js";
import { startReport } from "./flush-report.js";

const WAIT_FOR_WORKER_MS = 30_000;

// Deliveries and whole events that wait in the outbox (pending/, held/, digest/, events/).
async function waiting(paths: OutboxPaths): Promise<number> {
  const { readdir } = await import("node:fs/promises");
  const count = async (dir: string): Promise<number> =>
    (await readdir(dir).catch(() => [])).filter((name) => !name.startsWith(".")).length;
  const counts = await Promise.all(
    [paths.pending, paths.held, paths.digest, paths.events].map(count),
  );
  return counts.reduce((sum, n) => sum + n, 0);
}

// Prints one line per delivery and a summary; exit code 1 when something failed or is left.
export async function runFlush(argv: FlushArgs): Promise<void> {
  const deps = createDeps();
  const paths = outboxPaths(deps);
  const report = startReport(argv);
  const { json, say } = report;
  ensureDirs(paths);
  const owner = processOwner(deps);
  // SubagentStop events held for coalescing go out now, merged, instead of at their window's
  // end; a running worker (which may be waiting for that window) then delivers them.
  const held = await releaseHeld(deps, { force: true, abandoned: false });
  if (held.released > 0)
    say(`Merged ${String(held.released)} group(s) of held SubagentStop events.`);
  const drainNow = () => drainOutbox(deps, paths, owner, argv, report);
  let done = await whileLocked(paths.lock, owner, drainNow);
  if (!done && !argv["retry-failed"] && (await waiting(paths)) === 0) {
    // A worker stays a while after its last delivery: holding the lock is not delivering.
    say("Outbox: nothing is waiting (a background worker is idle, ready for the next hook).");
    json.worker = "idle";
    report.finish();
    return;
  }
  // A worker asked to pause finishes the attempts in flight, releases the lock, and takes it
  // back after this flush with what is left (PROTOCOL.md, "pause"): it keeps the ${VAR}s this
  // shell may lack, and with them the retries it scheduled.
  let paused = false;
  if (!done) {
    say(
      `A background worker is delivering ${String(await waiting(paths))} notification(s); asking it to hand over…`,
    );
    paused = await askToPause(paths.lock);
    json.worker = "handed-over";
  }
  for (const giveUpAt = Date.now() + WAIT_FOR_WORKER_MS; !done && Date.now() < giveUpAt;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    // A worker that just started names its socket after its first round: asked again then.
    if (!paused) paused = await askToPause(paths.lock);
    done = await whileLocked(paths.lock, owner, drainNow);
  }
  if (!done) {
    console.error("The background worker is still busy. Try again in a minute.");
    exitWhenDone(1);
    json.worker = "busy";
    report.finish();
    return;
  }
  report.finish();
  const left = done.value;
  // What is left (retries, held groups) is sent on schedule by a worker, not by the next hook.
  if (left > 0 && !paused) await startWorker(deps);
}

// True once the lock's holder was asked to pause through the socket the lock names.
async function askToPause(lock: string): Promise<boolean> {
  const socket = await lockSocket(lock);
  return socket ? sendWake(socket, "pause", process.pid) : false;
}
