// Folders of parts that the worker releases as one pending entry: held/ (SubagentStops coalesced,
// ../delivery/coalesce-groups.ts) and digest/ (what came while you were away,
// ../delivery/digest.ts). One mechanism for both, the storing part: each says when a folder is
// due and what its parts become.
//
// - A part is a whole outbox entry in the folder (so a corrupt one is quarantined the same way).
// - Releasing a folder claims it by one rename to "<name>.claimed.<tag>": a part moved in during
//   the release lands before the rename (and is merged) or starts a new folder; of two releases,
//   one wins the rename.
// - The claimed parts become one pending entry (written durably) and one journal line, then the
//   folder goes. A worker killed after the rename leaves the claimed folder; the next holder of
//   the worker lock merges it again (`abandoned`): same parts, same id, at-least-once. Only the
//   lock holder may ask for that, as no other release can be running then.
import { readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Deps } from "../deps.js";
import { journal } from "../journal/append.js";
import type { OutboxPaths } from "./paths.js";
import { readEntries, type Quarantined } from "./read-entries.js";
import { writeEntry, type OutboxEntry } from "./store.js";

const CLAIMED = ".claimed.";

/** What differs between held/ and digest/. */
export interface PartsKind<P extends OutboxEntry> {
  /** The folder that holds one folder per group. */
  root: string;
  /** The journal line's "outbox" value for a merged group. */
  journal: "coalesced" | "digest";
  /** Whether the group goes now, or when to look again (ms since the epoch). */
  due: (parts: P[]) => Promise<{ now: boolean; at?: number | undefined }>;
  /** A group folder with no part (a hook died between mkdir and rename, or all were corrupt). */
  empty: (dir: string) => Promise<void>;
  /** The one entry the group's parts become. */
  merge: (parts: P[]) => OutboxEntry;
}

export interface ReleaseSummary {
  /** Groups turned into pending entries in this pass. */
  released: number;
  /** Groups still waiting. */
  waiting: number;
  /** When the earliest waiting group is due (ms since the epoch). */
  nextDueAt?: number | undefined;
}

// Releases every group that is due (all of them with `force`, for `flush`).
export async function releaseFolders<P extends OutboxEntry>(
  deps: Deps,
  paths: OutboxPaths,
  kind: PartsKind<P>,
  options: { force?: boolean; abandoned?: boolean } = {},
): Promise<ReleaseSummary> {
  const summary: ReleaseSummary = { released: 0, waiting: 0 };
  for (const name of await readdir(kind.root).catch(() => [] as string[])) {
    const dir = join(kind.root, name);
    if (name.includes(CLAIMED)) {
      if (options.abandoned ?? true) summary.released += await mergeClaimed(deps, paths, kind, dir);
      continue;
    }
    const parts = (await readEntries(paths, dir, quarantined(deps))) as P[];
    if (parts.length === 0) {
      await kind.empty(dir);
      continue;
    }
    const due = options.force ? { now: true } : await kind.due(parts);
    if (!due.now) {
      summary.waiting++;
      summary.nextDueAt = Math.min(summary.nextDueAt ?? Infinity, due.at ?? Infinity);
      continue;
    }
    const claimed = `${dir}${CLAIMED}${process.pid.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    try {
      await rename(dir, claimed);
    } catch {
      continue; // gone meanwhile: nothing to release
    }
    summary.released += await mergeClaimed(deps, paths, kind, claimed);
  }
  return summary;
}

// True when any group (or abandoned claim) holds a part: the worker must stay to release it.
export async function holdsParts(root: string): Promise<boolean> {
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const parts = await readdir(join(root, name)).catch(() => [] as string[]);
    if (parts.some((part) => part.endsWith(".json"))) return true;
  }
  return false;
}

// Merges a claimed group into one pending entry, then deletes the group. Returns 1, or 0 if empty.
async function mergeClaimed<P extends OutboxEntry>(
  deps: Deps,
  paths: OutboxPaths,
  kind: PartsKind<P>,
  dir: string,
): Promise<number> {
  const parts = ((await readEntries(paths, dir, quarantined(deps))) as P[]).sort(
    (a, b) => a.createdAt - b.createdAt,
  );
  const [first] = parts;
  if (!first) {
    await rm(dir, { recursive: true, force: true });
    return 0;
  }
  const entry = kind.merge(parts);
  await writeEntry(paths, paths.pending, entry);
  journal(deps, {
    outbox: kind.journal,
    sink: first.sinkName,
    id: entry.notification.id,
    key: entry.key,
    parts: parts.map((part) => part.notification.id),
  });
  await rm(dir, { recursive: true, force: true });
  return 1;
}

// A corrupt part was moved to corrupt/: say so in the log.
function quarantined(deps: Deps) {
  return (item: Quarantined): void => {
    journal(deps, { outbox: "quarantined", key: item.name, message: item.reason });
  };
}
