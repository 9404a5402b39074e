// The digest, the durable part. A pending entry of a sink with `digest` that the worker finds the
// person away for is moved (whole, as written) into digest/<sink>/ instead of being sent. Each
// round the worker looks at every such folder: with "return", once the presence probes no longer
// say away (the latest part's gate asks them, as the hook saw the session); with "HH:MM", once that
// local time has come after the first part. Then the parts become one notification
// (message/digest.ts) and one pending entry, sent like any other.
//
// Claiming is one rename of the folder, as in held.ts: a part moved in during the release lands
// before the rename (and is merged) or starts a new folder. A worker killed after the rename leaves
// a "*.claimed.*" folder that the next lock holder merges again: same parts, same id.
import { mkdir, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Deps } from "../deps.js";
import { fnv1a64 } from "../fnv1a.js";
import { composeDigest } from "../message/digest.js";
import { askPresence, type PresenceBrief, type PresenceCache } from "./gate.js";
import { writeJournal } from "./journal.js";
import { outboxPaths, type OutboxPaths } from "./paths.js";
import { readEntries, type Quarantined } from "./read-entries.js";
import { newEntry, removeEntry, writeEntry, type OutboxEntry } from "./store.js";

const CLAIMED = ".claimed.";
/** With "return", how often a waiting digest asks the presence probes again. */
export const DIGEST_RECHECK_MS = 15_000;

export interface DigestSummary {
  released: number;
  waiting: number;
  nextDueAt?: number | undefined;
}

// Moves a pending entry into its sink's digest folder (durable before the pending file goes).
export async function holdForDigest(
  deps: Deps,
  paths: OutboxPaths,
  entry: OutboxEntry,
  presence: PresenceBrief | undefined,
): Promise<void> {
  const dir = join(paths.digest, folderName(entry.sinkName));
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeEntry(paths, dir, entry);
  await removeEntry(paths, entry.key);
  await writeJournal(deps, {
    outbox: "held",
    rule: "digest",
    sink: entry.sinkName,
    id: entry.notification.id,
    key: entry.key,
    ...(presence ? { presence } : {}),
  });
}

// One folder per sink; the name in front keeps it readable, the hash keeps it unique.
function folderName(sinkName: string): string {
  return `${sinkName.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 40)}.${fnv1a64(sinkName)}`;
}

// Sends every digest that is due (all of them with `force`, for `flush`). Claimed folders are
// merged again only by the holder of the worker lock (`abandoned`, the default).
export async function releaseDigests(
  deps: Deps,
  options: { force?: boolean; abandoned?: boolean } = {},
): Promise<DigestSummary> {
  const paths = outboxPaths(deps);
  const summary: DigestSummary = { released: 0, waiting: 0 };
  const cache: PresenceCache = new Map();
  for (const name of await readdir(paths.digest).catch(() => [] as string[])) {
    const dir = join(paths.digest, name);
    if (name.includes(CLAIMED)) {
      if (options.abandoned ?? true) summary.released += await mergeClaimed(deps, paths, dir);
      continue;
    }
    const parts = await readEntries(paths, dir, quarantined(deps));
    if (parts.length === 0) {
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      continue;
    }
    const due = options.force ? { now: true } : await dueState(parts, deps, cache);
    if (!due.now) {
      summary.waiting++;
      summary.nextDueAt = Math.min(summary.nextDueAt ?? Infinity, due.at ?? Infinity);
      continue;
    }
    const claimed = `${dir}${CLAIMED}${process.pid.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    try {
      await rename(dir, claimed);
    } catch {
      continue;
    }
    summary.released += await mergeClaimed(deps, paths, claimed);
  }
  return summary;
}

// True when a digest holds a part: the worker stays to send it.
export async function hasDigest(paths: OutboxPaths): Promise<boolean> {
  for (const name of await readdir(paths.digest).catch(() => [] as string[])) {
    const parts = await readdir(join(paths.digest, name)).catch(() => [] as string[]);
    if (parts.some((part) => part.endsWith(".json"))) return true;
  }
  return false;
}

async function dueState(
  parts: readonly OutboxEntry[],
  deps: Deps,
  cache: PresenceCache,
): Promise<{ now: boolean; at?: number }> {
  const latest = parts.reduce((a, b) => (b.createdAt >= a.createdAt ? b : a));
  const spec = latest.digest?.at ?? "return";
  if (spec !== "return") {
    const at = nextTimeOfDay(Math.min(...parts.map((part) => part.createdAt)), spec);
    return deps.now() >= at ? { now: true } : { now: false, at };
  }
  const gate = latest.presence;
  if (!gate) return { now: true };
  const key = JSON.stringify(gate);
  let asked = cache.get(key);
  if (!asked) {
    asked = askPresence(gate, deps);
    cache.set(key, asked);
  }
  // Back, or no probe can tell any more: send (never hold on a guess).
  if ((await asked).state !== "away") return { now: true };
  return { now: false, at: deps.now() + DIGEST_RECHECK_MS };
}

// The first local "HH:MM" strictly after `from` (ms since the epoch).
export function nextTimeOfDay(from: number, hhmm: string): number {
  const [hours, minutes] = hhmm.split(":").map(Number);
  const at = new Date(from);
  at.setHours(hours ?? 0, minutes ?? 0, 0, 0);
  if (at.getTime() <= from) at.setDate(at.getDate() + 1);
  return at.getTime();
}

// Merges a claimed folder into one pending entry, then deletes the folder. Returns 1, or 0 if empty.
async function mergeClaimed(deps: Deps, paths: OutboxPaths, dir: string): Promise<number> {
  const parts = (await readEntries(paths, dir, quarantined(deps))).sort(
    (a, b) => a.createdAt - b.createdAt,
  );
  const [first] = parts;
  if (!first) {
    await rm(dir, { recursive: true, force: true });
    return 0;
  }
  const notification = composeDigest(parts.map((part) => part.notification));
  // A new message, sent now: its age (for giving up) starts now, not while you were away.
  const entry = newEntry(
    {
      notification,
      sinkName: first.sinkName,
      ...(first.configPath ? { configPath: first.configPath } : {}),
      ...(first.projectDir ? { projectDir: first.projectDir } : {}),
    },
    deps.now(),
  );
  await writeEntry(paths, paths.pending, entry);
  await writeJournal(deps, {
    outbox: "digest",
    sink: first.sinkName,
    id: notification.id,
    key: entry.key,
    parts: parts.map((part) => part.notification.id),
  });
  await rm(dir, { recursive: true, force: true });
  return 1;
}

function quarantined(deps: Deps) {
  return (item: Quarantined): void => {
    void writeJournal(deps, { outbox: "quarantined", key: item.name, message: item.reason });
  };
}
