// Reading pages of the session list for a watch poll: runs of pages from a cursor, saved cursors
// that may have gone stale, and single pages re-read by the cursor they were first read with.
// Every page keeps the cursor it was asked with ("" for the first page), so a session seen busy
// can be looked at again with one request for its page instead of the whole list.
import { toHookNotifyError } from "../../errors.js";
import type { ServiceContext } from "../http.js";
import type { Session } from "../schemas.js";
import { getSessionPage } from "../session-api.js";
import type { SessionCursors } from "./state.js";

/** One page of the list and the cursor it was asked with ("" for the first page). */
export interface SessionPage {
  cursor: string;
  items: Session[];
}

export interface PagesRead {
  pages: SessionPage[];
  /** The cursor of the last page read; the cursor after it; whether the list ended. */
  last: string;
  next: string | undefined;
  done: boolean;
  capped: boolean;
}

// Up to `maxPages` pages from `start`, stopping early when `stop` says so.
export async function readPages(
  ctx: ServiceContext,
  computerId: string | undefined,
  start: string,
  maxPages: number,
  stop?: (page: Session[]) => boolean,
): Promise<PagesRead> {
  const pages: SessionPage[] = [];
  let cursor = start;
  for (let page = 0; ; page++) {
    const result = await getSessionPage(ctx, { cursor, computerId });
    pages.push({ cursor, items: result.items });
    const next = result.nextCursor ?? undefined;
    const done = !result.hasMore || !next || next === cursor;
    if (done || stop?.(result.items) || page + 1 >= maxPages)
      return { pages, last: cursor, next, done, capped: !done && page + 1 >= maxPages };
    cursor = next;
  }
}

// Whether the service refused a cursor itself (any 4xx but 401, 403 and 429: 400, 404, 410,
// 422, …): a cursor saved polls ago may have expired, and nothing documents how that is said.
export function isRefusedCursor(error: unknown): boolean {
  const status = toHookNotifyError(error).status ?? 0;
  return status >= 400 && status < 500 && ![401, 403, 429].includes(status);
}

// Reads from a saved cursor, else from `fallback` (the first page's next cursor). A refused
// cursor is dropped at once, one answered with a 5xx twice in a row too. `saved` is updated in
// place (the strikes survive a failed poll).
export async function readSaved(
  saved: SessionCursors,
  which: "tail" | "sweep",
  fallback: string,
  read: (cursor: string) => Promise<PagesRead>,
): Promise<PagesRead> {
  const cursor = saved[which];
  if (cursor === undefined) return read(fallback);
  try {
    const pages = await read(cursor);
    saved.strikes = undefined;
    return pages;
  } catch (error) {
    const status = toHookNotifyError(error).status ?? 0;
    const broken = status >= 500 && (saved.strikes ?? 0) >= 1;
    if (!isRefusedCursor(error) && !broken) {
      if (status >= 500) saved.strikes = (saved.strikes ?? 0) + 1;
      throw error;
    }
    saved[which] = undefined;
    saved.strikes = undefined;
    return read(fallback);
  }
}

// One page each for `cursors`, in order: what a session seen busy looks like now, for one
// request per page however long the list. A cursor refused or answered 5xx (the first page of
// the poll was read, so the service is up) yields no page, and its sessions are asked for one by
// one; a 401, 403, 429 or no answer fails the poll.
export async function readPagesAt(
  ctx: ServiceContext,
  computerId: string | undefined,
  cursors: readonly string[],
): Promise<SessionPage[]> {
  const pages: SessionPage[] = [];
  for (const cursor of cursors) {
    try {
      const result = await getSessionPage(ctx, { cursor: cursor || undefined, computerId });
      pages.push({ cursor, items: result.items });
    } catch (error) {
      if (!isRefusedCursor(error) && (toHookNotifyError(error).status ?? 0) < 500) throw error;
    }
  }
  return pages;
}

// Newest first when the first page's first item is newer than its last (created, else updated).
export function isNewestFirst(items: readonly Session[]): boolean {
  const a = items[0];
  const b = items.at(-1);
  if (!a || !b || a === b) return false;
  if (a.createdAt !== undefined && b.createdAt !== undefined && a.createdAt !== b.createdAt)
    return a.createdAt > b.createdAt;
  return (a.updatedAt ?? 0) > (b.updatedAt ?? 0);
}
