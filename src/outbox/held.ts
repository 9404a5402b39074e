// Subagent coalescing, the durable part. A hook with a SubagentStop that may be coalesced writes
// its delivery into held/<group>/ (one group per session and sink) instead of pending/, and returns.
// The worker releases a group once no SubagentStop joined it for its window (or 60 s after its
// first): the parts become one notification (message/coalesce.ts) and one pending entry.
//
// Claiming is one rename of the group folder, so a hook that arrives during the release either
// lands before the rename (and is merged) or finds the folder gone and starts a new group. A worker
// killed after the rename leaves a "*.claimed.*" folder that the next one (holding the lock, so no
// other release is running) merges again: same parts, same id, at-least-once.
import { mkdir, readdir, rename, rm, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { Deps } from "../deps.js";
import { fnv1a64 } from "../fnv1a.js";
import { coalesceNotifications } from "../message/coalesce.js";
import type { Notification } from "../core/notification.js";
import { MAX_HOLD_MS } from "../core/defaults.js";
import { writeJournal } from "./journal.js";
import { outboxPaths, type OutboxPaths } from "./paths.js";
import { readEntries, type Quarantined } from "./read-entries.js";
import {
  ensureDirs,
  newEntry,
  writeEntry,
  writeTemp,
  type QueuedDelivery,
  type OutboxEntry,
} from "./store.js";

const CLAIMED = ".claimed.";
/** An empty group folder (a hook died between mkdir and rename) is removed after this. */
const EMPTY_GROUP_MS = 2 * MAX_HOLD_MS;

/** A held part: an outbox entry (so corrupt ones are quarantined the same way) plus its window. */
export interface HeldEntry extends OutboxEntry {
  holdMs: number;
  maxBodyLength: number;
}

export interface HoldRequest extends QueuedDelivery {
  holdMs: number;
  maxBodyLength: number;
}

export interface ReleaseSummary {
  /** Groups turned into pending entries in this pass. */
  released: number;
  /** Groups still waiting for their window to close. */
  waiting: number;
  /** When the earliest waiting group is due (ms since the epoch). */
  nextDueAt?: number | undefined;
}

// Writes one part into its group, durably (temp file, fsync, rename), and returns.
export async function hold(deps: Deps, request: HoldRequest): Promise<void> {
  const paths = outboxPaths(deps);
  await ensureDirs(paths);
  const now = deps.now();
  const { notification, sinkName } = request;
  const entry: HeldEntry = {
    ...newEntry(request, now),
    holdMs: request.holdMs,
    maxBodyLength: request.maxBodyLength,
  };
  const temp = await writeTemp(paths, entry);
  const dir = join(paths.held, groupName(notification, sinkName));
  // Sortable by arrival: the time first, then the key.
  const name = `${String(now).padStart(15, "0")}.${entry.key}.json`;
  for (let attempt = 0; ; attempt++) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    try {
      await rename(temp, join(dir, name));
      return;
    } catch (error) {
      // ENOENT: the worker claimed the group between our mkdir and rename; start a new one.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || attempt >= 3) {
        await unlink(temp).catch(() => undefined);
        throw error;
      }
    }
  }
}

// One group per client, session and sink; the sink name in front keeps it readable.
export function groupName(notification: Notification, sinkName: string): string {
  const key = [notification.client ?? "", notification.sessionId ?? "", sinkName].join("\0");
  return `${sinkName.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 40)}.${fnv1a64(key)}`;
}

// Releases every group whose window has closed (all of them with `force`, for `flush`). Claimed
// folders are merged again only with `abandoned` (the default), which only the holder of the
// worker lock may ask for: no other release can be running then. Without it, a release is safe
// next to a running worker (claiming is one rename; of two, one wins).
export async function releaseHeld(
  deps: Deps,
  options: { force?: boolean; abandoned?: boolean } = {},
): Promise<ReleaseSummary> {
  const paths = outboxPaths(deps);
  const summary: ReleaseSummary = { released: 0, waiting: 0 };
  for (const name of await readdir(paths.held).catch(() => [] as string[])) {
    const dir = join(paths.held, name);
    if (name.includes(CLAIMED)) {
      if (options.abandoned ?? true) summary.released += await mergeClaimed(deps, paths, dir);
      continue;
    }
    const parts = await readEntries(paths, dir, quarantined(deps));
    if (parts.length === 0) {
      await removeIfStaleEmpty(dir, deps.now());
      continue;
    }
    const dueAt = dueTime(parts as HeldEntry[]);
    if (!options.force && dueAt > deps.now()) {
      summary.waiting++;
      summary.nextDueAt = Math.min(summary.nextDueAt ?? Infinity, dueAt);
      continue;
    }
    const claimed = `${dir}${CLAIMED}${process.pid.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    try {
      await rename(dir, claimed);
    } catch {
      continue; // gone meanwhile: nothing to release
    }
    summary.released += await mergeClaimed(deps, paths, claimed);
  }
  return summary;
}

// True when any group (or abandoned claim) holds a part: the worker must stay to release it.
export async function hasHeld(paths: OutboxPaths): Promise<boolean> {
  for (const name of await readdir(paths.held).catch(() => [] as string[])) {
    const parts = await readdir(join(paths.held, name)).catch(() => [] as string[]);
    if (parts.some((part) => part.endsWith(".json"))) return true;
  }
  return false;
}

// The window closes `holdMs` after the latest part, and never later than MAX_HOLD_MS after the first.
export function dueTime(parts: readonly HeldEntry[]): number {
  const first = Math.min(...parts.map((part) => part.createdAt));
  const latest = Math.max(...parts.map((part) => part.createdAt + part.holdMs));
  return Math.min(latest, first + MAX_HOLD_MS);
}

// Merges a claimed group into one pending entry, then deletes the group. Returns 1, or 0 if empty.
async function mergeClaimed(deps: Deps, paths: OutboxPaths, dir: string): Promise<number> {
  const parts = (await readEntries(paths, dir, quarantined(deps))) as HeldEntry[];
  const [first] = parts;
  if (!first) {
    await rm(dir, { recursive: true, force: true });
    return 0;
  }
  const maxBodyLength = Math.max(...parts.map((part) => part.maxBodyLength));
  const notification = coalesceNotifications(
    parts.map((part) => part.notification),
    maxBodyLength,
  );
  // Its age (for giving up) counts from the first part.
  const entry: OutboxEntry = {
    ...newEntry({ ...first, notification }, deps.now()),
    createdAt: first.createdAt,
  };
  await writeEntry(paths, paths.pending, entry);
  await writeJournal(deps, {
    outbox: "coalesced",
    sink: first.sinkName,
    id: notification.id,
    key: entry.key,
    parts: parts.map((part) => part.notification.id),
  });
  await rm(dir, { recursive: true, force: true });
  return 1;
}

// A corrupt part was moved to corrupt/: say so in the log.
function quarantined(deps: Deps) {
  return (item: Quarantined): void => {
    void writeJournal(deps, { outbox: "quarantined", key: item.name, message: item.reason });
  };
}

async function removeIfStaleEmpty(dir: string, now: number): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info && now - info.mtimeMs > EMPTY_GROUP_MS) {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
