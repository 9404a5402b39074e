// "Seen" markers for de-duplication and cool-downs, shared by every hook process of a user: one
// file per key under $XDG_STATE_HOME/hook-notify/seen/, its mtime the moment it was claimed,
// holding the id of the notification that claimed it (empty when the claim named none). The same
// notification run again (a worker died during its run: link/inbox.ts recoverEvents) finds its
// own markers and goes on; any other within the window is a repeat.
// Synchronous on purpose, like record.ts: a few tiny calls, and node:fs/promises costs ~2 ms to load.
import { readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { createExclusive, moveAsideIfSame, statOrNothing, tryQuietly } from "./exclusive-file.js";
import { readBoundedSync } from "../read-bounded.js";

/** Claims or peeks at a marker; true means "go ahead and notify". */
export type ClaimMarker = (name: string, windowMs: number) => boolean;

/** The longest owner a marker holds (a notification id is 36 characters). */
const OWNER_MAX = 64;

const SWEEP_ONE_IN = 20;

// Creates the marker atomically ("wx": of many processes at the same moment exactly one wins).
// A marker older than its window is moved aside and claimed anew. Any other file system failure
// answers true: a broken state folder must never silence a notification.
export function claimMarker(
  dir: string,
  name: string,
  windowMs: number,
  now: number,
  owner?: string,
): boolean {
  const path = join(dir, name);
  const mine = owner !== undefined && owner !== "" && owner.length <= OWNER_MAX ? owner : "";
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const created = createExclusive(dir, path, mine);
    if (created !== "exists") {
      if (created === "created" && Math.random() * SWEEP_ONE_IN < 1) sweepMarkers(dir, now);
      return true;
    }
    const stale = statOrNothing(path);
    if (stale && now - stale.mtimeMs < windowMs) return mine !== "" && ownerOf(path) === mine;
    if (stale && !moveAsideIfSame(path, stale)) return false;
  }
  return false;
}

// Who claimed a marker ("" when it named nobody or cannot be read).
function ownerOf(path: string): string {
  try {
    return readBoundedSync(path, { maxBytes: OWNER_MAX, noFollow: true });
  } catch {
    return "";
  }
}

// --dry-run: the same answer as claimMarker would give, without touching anything.
export function peekMarker(dir: string, name: string, windowMs: number, now: number): boolean {
  const seen = statOrNothing(join(dir, name));
  return !seen || now - seen.mtimeMs >= windowMs;
}

// Now and then (1 run in 20): markers whose window has passed are deleted, so the folder stays
// small. The window is the last part of every marker's name ("dd-<hash>-5").
export function sweepMarkers(dir: string, now: number): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const windowMs = Number(name.slice(name.lastIndexOf("-") + 1)) * 1000;
    const path = join(dir, name);
    const info = statOrNothing(path);
    const limit = Number.isFinite(windowMs) ? windowMs : 0;
    if (info && now - info.mtimeMs > Math.max(limit, 60_000)) {
      tryQuietly(() => {
        unlinkSync(path);
      });
    }
  }
}
