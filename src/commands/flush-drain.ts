// One drain of `flush` with the outbox's lock: the hook events no worker ran, the held groups and
// digests, then passes over pending/ (and the fallbacks they handed on), each printed.
import { releaseHeld } from "../delivery/coalesce-groups.js";
import { releaseDigests } from "../delivery/digest.js";
import type { Deps } from "../deps.js";
import { exitWhenDone } from "../exit.js";
import { recoverEvents } from "../link/inbox.js";
import type { LockOwner } from "../link/lock.js";
import type { OutboxPaths } from "../outbox/paths.js";
import { requeueFailed } from "../outbox/read-entries.js";
import { runEvents } from "../worker/run-events.js";
import { passes } from "./flush-passes.js";
import type { FlushReport } from "./flush-report.js";

export interface FlushArgs {
  "retry-failed": boolean;
  "max-age-hours"?: number | undefined;
  json: boolean;
}

// Hook events no worker ran, the failed ones on --retry-failed, held groups and digests: all go
// to pending/ before the passes.
async function releaseWaiting(
  deps: Deps,
  paths: OutboxPaths,
  owner: LockOwner,
  argv: FlushArgs,
  { say }: FlushReport,
): Promise<void> {
  // Hook events no worker ran (none was alive, or none could start): run here, with the lock,
  // as the worker would (a dead taker's go back in line first).
  recoverEvents(paths, owner.isAlive);
  const ran = await runEvents(deps, paths, () => undefined, { worker: false });
  if (ran > 0) say(`Ran ${String(ran)} hook event(s) that waited for a worker.`);
  if (argv["retry-failed"])
    say(`Retrying ${await requeueFailed(paths, deps.now())} failed deliveries.`);
  await releaseHeld(deps, { force: true }); // with the lock: also what a dead worker claimed
  // Digests held while you were away go now: whoever runs flush is there.
  const digests = await releaseDigests(deps, { force: true });
  if (digests.released > 0) say(`Composed ${String(digests.released)} digest(s).`);
}

// Drains the outbox once (the caller holds its lock); returns the deliveries left undelivered.
export async function drainOutbox(
  deps: Deps,
  paths: OutboxPaths,
  owner: LockOwner,
  argv: FlushArgs,
  report: FlushReport,
): Promise<number> {
  const { say, json } = report;
  await releaseWaiting(deps, paths, owner, argv, report);
  const summary = await passes(deps, argv, report);
  // A look at a sent message's receipt is no delivery left to make.
  const undelivered = summary.remaining - summary.watching;
  const pending = undelivered > 0 ? `, ${undelivered} still pending` : "";
  const quarantined =
    summary.quarantined > 0
      ? `, ${summary.quarantined} corrupt file(s) moved to ${paths.corrupt}`
      : "";
  say(`Outbox: ${summary.delivered} delivered, ${summary.failed} failed${pending}${quarantined}.`);
  if (summary.failed > 0)
    say(`Failed deliveries are kept in ${paths.failed} (retry them with --retry-failed).`);
  exitWhenDone(summary.failed > 0 || undelivered > 0 ? 1 : 0);
  Object.assign(json, {
    delivered: summary.delivered,
    failed: summary.failed,
    pending: undelivered,
    quarantined: summary.quarantined,
  });
  return undelivered;
}
