// The digest, the durable part. A pending entry of a sink with `digest` that the worker finds the
// person away for is moved (whole, as written) into digest/<sink>/ instead of being sent. Each
// round the worker looks at every such folder: with "return", once the presence probes no longer
// say away (the latest part's gate asks them, as the hook saw the session); with "HH:MM", once that
// local time has come after the first part. Then the parts become one notification
// (message/digest.ts) and one pending entry, sent like any other.
//
// Claiming and merging a folder are parts-folders.ts's, as for held SubagentStops.
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Deps } from "../deps.js";
import { fnv1a64 } from "../fnv1a.js";
import { composeDigest } from "../message/digest.js";
import { askPresence, type PresenceCache } from "./presence-gate.js";
import type { PresenceBrief } from "../journal/run-attempt.js";
import { journal } from "../journal/append.js";
import { outboxPaths, type OutboxPaths } from "../outbox/paths.js";
import {
  holdsParts,
  releaseFolders,
  type PartsKind,
  type ReleaseSummary,
} from "../outbox/parts-folders.js";
import { newEntry, removeEntry, writeEntry, type OutboxEntry } from "../outbox/store.js";

/** With "return", how often a waiting digest asks the presence probes again. */
export const DIGEST_RECHECK_MS = 15_000;

export type DigestSummary = ReleaseSummary;

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
  journal(deps, {
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
  const cache: PresenceCache = new Map();
  const kind: PartsKind<OutboxEntry> = {
    root: paths.digest,
    journal: "digest",
    due: (parts) => dueState(parts, deps, cache),
    empty: (dir) => rm(dir, { recursive: true, force: true }).catch(() => undefined),
    merge: (parts) => {
      const first = parts[0] as OutboxEntry;
      const notification = composeDigest(parts.map((part) => part.notification));
      // A new message, sent now: its age (for giving up) starts now, not while you were away.
      return newEntry(
        {
          notification,
          sinkName: first.sinkName,
          ...(first.configPath ? { configPath: first.configPath } : {}),
          ...(first.projectDir ? { projectDir: first.projectDir } : {}),
        },
        deps.now(),
      );
    },
  };
  return releaseFolders(deps, paths, kind, options);
}

// True when a digest holds a part: the worker stays to send it.
export function hasDigest(paths: OutboxPaths): Promise<boolean> {
  return holdsParts(paths.digest);
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
