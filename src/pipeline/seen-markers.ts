// "Seen" markers for de-duplication and cool-downs, shared by every hook process of a user: one
// empty file per key under $XDG_STATE_HOME/hook-notify/seen/, its mtime the moment it was claimed.
// Synchronous on purpose, like record.ts: a few tiny calls, and node:fs/promises costs ~2 ms to load.
import { readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { createExclusive, moveAsideIfSame, statOrNothing, tryQuietly } from "./exclusive-file.js";

/** Claims or peeks at a marker; true means "go ahead and notify". */
export type ClaimMarker = (name: string, windowMs: number) => boolean;

const SWEEP_ONE_IN = 20;

// Creates the marker atomically ("wx": of many processes at the same moment exactly one wins).
// A marker older than its window is moved aside and claimed anew. Any other file system failure
// answers true: a broken state folder must never silence a notification.
export function claimMarker(dir: string, name: string, windowMs: number, now: number): boolean {
  const path = join(dir, name);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const created = createExclusive(dir, path);
    if (created !== "exists") {
      if (created === "created" && Math.random() * SWEEP_ONE_IN < 1) sweepMarkers(dir, now);
      return true;
    }
    const stale = statOrNothing(path);
    if (stale && now - stale.mtimeMs < windowMs) return false;
    if (stale && !moveAsideIfSame(path, stale)) return false;
  }
  return false;
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
