// The outbox backlog: deliveries waiting (pending/, and SubagentStop events held for coalescing in
// held/) or given up (failed/), and the oldest one's age.
import { readFile, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Deps } from "../deps.js";
import { outboxPaths } from "../outbox/paths.js";
import { listNames } from "../outbox/store.js";
import { fail, ok, warn, type CheckResult } from "../check-result.js";
import { lockHolder } from "../link/lock.js";
import { processOwner } from "../link/spawn.js";
import { startDetached } from "../link/start-detached.js";
import { waitingEvents } from "../link/waiting-events.js";

/** A hook starts a worker within milliseconds of writing its event: older than this with no
 * worker alive, the event is stranded. */
export const STRANDED_AFTER_MS = 5_000;
/** A live worker takes an event within a round; older than this, it is not taking them. */
const UNTAKEN_AFTER_MS = 60_000;

// Reads file names and times only: doctor never moves or delivers an entry.
export async function checkOutbox(
  deps: Pick<Deps, "env" | "homedir" | "platform" | "now">,
): Promise<CheckResult> {
  const paths = outboxPaths(deps);
  const names = await listNames(paths.pending).catch(() => []);
  // A look at a sent message's receipt waits in pending/ too, but nothing is undelivered.
  const watches = await receiptWatches(paths.pending, names);
  const pending = names.filter((name) => !watches.includes(name));
  const failed = await listNames(paths.failed).catch(() => []);
  const held = await heldFiles(paths.held);
  if (pending.length + failed.length + held.length === 0)
    return ok("outbox", watches.length === 0 ? "empty" : `empty (${watchedOf(watches)})`);
  const files = [
    ...pending.map((name) => join(paths.pending, name)),
    ...failed.map((name) => join(paths.failed, name)),
    ...held,
  ];
  const times = await Promise.all(
    files.map((file) =>
      stat(file).then(
        (s) => s.mtimeMs,
        () => deps.now(),
      ),
    ),
  );
  const age = formatAge(deps.now() - Math.min(...times));
  const fix = failed.length > 0 ? "hook-notify flush --retry-failed" : "hook-notify flush";
  return warn(
    "outbox",
    `${pending.length} pending, ${held.length === 0 ? "" : `${held.length} held for coalescing, `}${failed.length} failed, oldest ${age} old (${paths.root})`,
    fix,
  );
}

// Hook events in outbox/events/ (link/inbox.ts) that no worker runs: doctor starts one to take
// them (it settles the lock itself), and fails when they have waited past STRANDED_AFTER_MS.
export async function checkEvents(
  deps: Pick<Deps, "env" | "homedir" | "platform" | "now" | "cwd">,
): Promise<CheckResult> {
  const paths = outboxPaths(deps);
  const events = waitingEvents(paths);
  if (events.length === 0) return ok("events", "no hook event waits for a worker");
  const oldest = Math.min(...events.map((event) => event.receivedAt));
  const age = deps.now() - oldest;
  const since = `${String(events.length)} hook event(s) waiting in ${paths.events} since ${stamp(oldest)} (${formatAge(age)} ago)`;
  const live = (await lockHolder(paths.lock, processOwner(deps))) !== undefined;
  if (live) {
    return age > UNTAKEN_AFTER_MS
      ? warn("events", `${since}; the live worker has not taken them`, "hook-notify flush")
      : ok("events", `${since}; the live worker takes them`);
  }
  const started = startDetached(deps.env, deps.cwd);
  const taken = started
    ? "doctor started a worker to take them"
    : "no worker could be started (dist/worker.cjs missing, or node cannot start a process)";
  if (age <= STRANDED_AFTER_MS) return ok("events", `${since}; ${taken}`);
  return fail(
    "events",
    `${since} with no worker running; ${taken}`,
    "hook-notify flush delivers them now; hook-notify log lists them",
    { blocks: true },
  );
}

// "2026-11-27 20:17:03 UTC"
function stamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

// The pending entries that are receipt watches (delivery/receipt-watch.ts); read, never moved.
async function receiptWatches(dir: string, names: readonly string[]): Promise<string[]> {
  const found = await Promise.all(
    names.map(async (name) => {
      const text = await readFile(join(dir, name), "utf8").catch(() => "");
      try {
        return (JSON.parse(text) as { watch?: unknown }).watch === undefined ? [] : [name];
      } catch {
        return [];
      }
    }),
  );
  return found.flat();
}

function watchedOf(watches: readonly string[]): string {
  return `asking the service about ${String(watches.length)} sent message(s)' acknowledgement`;
}

// Every part in every held group (a group is a folder of .json files).
async function heldFiles(root: string): Promise<string[]> {
  const groups = await readdir(root).catch(() => [] as string[]);
  const lists = await Promise.all(
    groups.map(async (group) =>
      (await listNames(join(root, group)).catch(() => [])).map((name) => join(root, group, name)),
    ),
  );
  return lists.flat();
}

// "45 s", "12 min", "3 h", "2 d"
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} d`;
}
