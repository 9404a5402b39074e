// Subagent coalescing, the durable part. A hook with a SubagentStop that may be coalesced writes
// its delivery into held/<group>/ (one group per session and sink) instead of pending/, and returns.
// The worker releases a group once no SubagentStop joined it for its window (or 60 s after its
// first): the parts become one notification (message/coalesce.ts) and one pending entry.
//
// Claiming and merging a group are parts-folders.ts's (one rename; a claim a killed worker left
// is merged again by the next lock holder), as for digests.
import { mkdir, rename, rm, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { Deps } from "../deps.js";
import { fnv1a64 } from "../fnv1a.js";
import { coalesceNotifications } from "../message/coalesce.js";
import type { Notification } from "../core/notification.js";
import { MAX_HOLD_MS } from "../core/defaults.js";
import { outboxPaths, type OutboxPaths } from "../outbox/paths.js";
import {
  holdsParts,
  releaseFolders,
  type PartsKind,
  type ReleaseSummary,
} from "../outbox/parts-folders.js";
import {
  ensureDirs,
  newEntry,
  writeTemp,
  type QueuedDelivery,
  type OutboxEntry,
} from "../outbox/store.js";

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

export type { ReleaseSummary } from "../outbox/parts-folders.js";

// Writes one part into its group, durably (temp file, fsync, rename), and returns.
export async function hold(deps: Deps, request: HoldRequest): Promise<void> {
  const paths = outboxPaths(deps);
  ensureDirs(paths);
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

// Releases every group whose window has closed (all of them with `force`, for `flush`); claiming
// and merging are parts-folders.ts's, as for digests.
export async function releaseHeld(
  deps: Deps,
  options: { force?: boolean; abandoned?: boolean } = {},
): Promise<ReleaseSummary> {
  const paths = outboxPaths(deps);
  return releaseFolders(deps, paths, heldKind(deps, paths), options);
}

// True when any group (or abandoned claim) holds a part: the worker must stay to release it.
export function hasHeld(paths: OutboxPaths): Promise<boolean> {
  return holdsParts(paths.held);
}

// The window closes `holdMs` after the latest part, and never later than MAX_HOLD_MS after the first.
export function dueTime(parts: readonly HeldEntry[]): number {
  const first = Math.min(...parts.map((part) => part.createdAt));
  const latest = Math.max(...parts.map((part) => part.createdAt + part.holdMs));
  return Math.min(latest, first + MAX_HOLD_MS);
}

function heldKind(deps: Deps, paths: OutboxPaths): PartsKind<HeldEntry> {
  return {
    root: paths.held,
    journal: "coalesced",
    due: (parts) => {
      const at = dueTime(parts);
      return Promise.resolve(at <= deps.now() ? { now: true } : { now: false, at });
    },
    empty: (dir) => removeIfStaleEmpty(dir, deps.now()),
    merge: (parts) => {
      const first = parts[0] as HeldEntry;
      const maxBodyLength = Math.max(...parts.map((part) => part.maxBodyLength));
      const notification = coalesceNotifications(
        parts.map((part) => part.notification),
        maxBodyLength,
      );
      // Its age (for giving up) counts from the first part.
      return { ...newEntry({ ...first, notification }, deps.now()), createdAt: first.createdAt };
    },
  };
}

async function removeIfStaleEmpty(dir: string, now: number): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info && now - info.mtimeMs > EMPTY_GROUP_MS) {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
