// The sessions part of a watch poll, with a bounded number of requests however long the list.
// When more sessions were busy than a poll may GET one by one, the whole list is read instead
// (one request per 100 sessions, at most 200 pages), so every turn that ended is told on the
// next poll, and sessions on no page are dropped from the state.
// The live service lists sessions oldest first and has no order parameter, so each poll reads the
// first page, the list's end from the cursor saved last time (new sessions), and a few pages of a
// rolling sweep (follow-up turns of older sessions, found a few polls late but found); sessions
// seen busy that no page showed are asked for one by one. A newest-first list is read down to the
// last poll. `computerIds` narrows every read to those computers (the documented filter).
import { toHookNotifyError } from "../../errors.js";
import { getSession } from "../client.js";
import type { ServiceContext } from "../http.js";
import type { Session } from "../schemas.js";
import { getSessionPage } from "../session-api.js";
import { describeTurn } from "./describe-turn.js";
import { detectSessions, type SessionIdleFact } from "./detect-sessions.js";
import type { SeenSession, SessionCursors, WatchState } from "./state.js";

/** Pages the first poll may read (the baseline), and each later poll at the list's end. */
export const FIRST_POLL_PAGES = 50;
export const POLL_PAGES = 5;
const SWEEP_PAGES = 2;
/** Sessions fetched one by one (status missing, or busy and on no page read), per poll. */
const MAX_SESSION_GETS = 50;
/** Finished turns whose last answer is read, per poll (the digest lists 30). */
const MAX_DESCRIBED = 30;
/** Pages read at most when the whole list is read (more sessions seen busy than GETs allow). */
const FULL_PAGES = 200;
const BUSY = new Set(["running", "pending"]);

/** What a scan found to announce, and what a person should know (a list longer than read). */
export interface SessionScan {
  facts: SessionIdleFact[];
  warnings: string[];
}

// Reads, compares with the state, describes each finished turn, and updates the state in place.
export async function scanSessions(
  ctx: ServiceContext,
  state: WatchState,
  options: { now: number; computerIds: readonly string[] },
): Promise<SessionScan> {
  const found = new Map<string, Session>();
  const warnings: string[] = [];
  const cursors: Record<string, SessionCursors> = { ...state.sessionCursors };
  const pages = state.sessions === undefined ? FIRST_POLL_PAGES : POLL_PAGES;
  // More sessions were busy than a poll may GET one by one: a page tells 100 statuses for one
  // request, so the whole list is read, and every turn that ended is told on this poll.
  const busy = Object.values(state.sessions ?? {}).filter((s) => BUSY.has(s.status ?? ""));
  const full = busy.length > MAX_SESSION_GETS;
  let complete = true;
  for (const scope of options.computerIds.length > 0 ? options.computerIds : [""]) {
    const saved: SessionCursors = { ...cursors[scope] };
    let read: ScopeRead;
    try {
      read = await readScope(ctx, scope, saved, {
        pages,
        since: state.sessionsPolledAt,
        full,
      });
    } catch (error) {
      // The poll fails, but what readSaved learnt about the saved cursors is kept.
      state.sessionCursors = { ...cursors, [scope]: saved };
      throw error;
    }
    cursors[scope] = read.cursors;
    complete &&= read.complete;
    for (const session of read.sessions) found.set(session.sessionId, session);
    if (read.capped)
      warnings.push(
        `sessions${scope ? ` of computer ${scope}` : ""}: the list is longer than ${String(pages)} pages; the rest is read on the next polls.`,
      );
  }
  const gone = await refetch(ctx, state.sessions, found);
  const { facts, next } = detectSessions(
    state.sessions,
    [...found.values()],
    state.sessionsPolledAt,
  );
  // A session gone from the service: a 404 on its GET, or (after the whole list was read) on no
  // page. The state keeps only what the service still has.
  const kept = Object.fromEntries(
    Object.entries(next).filter(
      ([id]) => !gone.includes(id) && (!complete || !state.sessions || found.has(id)),
    ),
  );
  Object.assign(state, { sessions: kept, sessionsPolledAt: options.now, sessionCursors: cursors });
  // Each described turn costs a messages request: a wave is described only as far as its
  // digest lists it (the rest go out with their title and status).
  for (const fact of facts.slice(0, MAX_DESCRIBED))
    await describeTurn(ctx, fact, found.get(fact.sessionId));
  return { facts, warnings };
}

interface ScopeRead {
  sessions: Session[];
  cursors: SessionCursors;
  capped: boolean;
  /** Every page of the list was read. */
  complete: boolean;
}

async function readScope(
  ctx: ServiceContext,
  scope: string,
  saved: SessionCursors,
  limits: { pages: number; since: number | undefined; full: boolean },
): Promise<ScopeRead> {
  const computerId = scope || undefined;
  const first = await getSessionPage(ctx, { computerId });
  const sessions = [...first.items];
  if (!first.hasMore || !first.nextCursor)
    return { sessions, cursors: {}, capped: false, complete: true };
  const read = (cursor: string, pages: number, stop?: (page: Session[]) => boolean) =>
    readPages(ctx, computerId, cursor, pages, stop);
  if (limits.full) {
    const all = await read(first.nextCursor, FULL_PAGES);
    return {
      sessions: [...sessions, ...all.sessions],
      cursors: { tail: all.last },
      capped: all.capped,
      complete: all.done,
    };
  }
  const since = limits.since;
  const newest = isNewestFirst(first.items);
  // Newest first: down to the last poll. Oldest first: the list's end, re-reading its last page
  // next time (it may have grown).
  const tail = newest
    ? await read(first.nextCursor, limits.pages, (page) =>
        since === undefined ? false : page.every((s) => (s.updatedAt ?? s.createdAt ?? 0) < since),
      )
    : await readSaved(saved, "tail", first.nextCursor, (cursor) => read(cursor, limits.pages));
  // Either way a rolling sweep through the rest, starting again from the top at the end.
  const sweep = await readSaved(saved, "sweep", first.nextCursor, (cursor) =>
    read(cursor, SWEEP_PAGES),
  );
  return {
    sessions: [...sessions, ...tail.sessions, ...sweep.sessions],
    cursors: { ...(newest ? {} : { tail: tail.last }), sweep: sweep.done ? undefined : sweep.next },
    capped: tail.capped,
    complete: false,
  };
}

interface PagesRead {
  sessions: Session[];
  /** The cursor of the last page read; the cursor after it; whether the list ended. */
  last: string;
  next: string | undefined;
  done: boolean;
  capped: boolean;
}

async function readPages(
  ctx: ServiceContext,
  computerId: string | undefined,
  start: string,
  maxPages: number,
  stop?: (page: Session[]) => boolean,
): Promise<PagesRead> {
  const sessions: Session[] = [];
  let cursor = start;
  for (let page = 0; ; page++) {
    const result = await getSessionPage(ctx, { cursor, computerId });
    sessions.push(...result.items);
    const next = result.nextCursor ?? undefined;
    const done = !result.hasMore || !next || next === cursor;
    if (done || stop?.(result.items) || page + 1 >= maxPages)
      return { sessions, last: cursor, next, done, capped: !done && page + 1 >= maxPages };
    cursor = next;
  }
}

// Reads from a saved cursor, else from `fallback` (the first page's next cursor). A cursor the
// service refuses (any 4xx but 401, 403 and 429: 400, 404, 410, 422, …) is dropped at once, one
// answered with a 5xx twice in a row too: a cursor saved polls ago may have expired, and nothing
// documents how that is said. `saved` is updated in place (the strikes survive a failed poll).
async function readSaved(
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
    const refused = status >= 400 && status < 500 && ![401, 403, 429].includes(status);
    const broken = status >= 500 && (saved.strikes ?? 0) >= 1;
    if (!refused && !broken) {
      if (status >= 500) saved.strikes = (saved.strikes ?? 0) + 1;
      throw error;
    }
    saved[which] = undefined;
    saved.strikes = undefined;
    return read(fallback);
  }
}

// Newest first when the first page's first item is newer than its last (created, else updated).
function isNewestFirst(items: readonly Session[]): boolean {
  const a = items[0];
  const b = items.at(-1);
  if (!a || !b || a === b) return false;
  if (a.createdAt !== undefined && b.createdAt !== undefined && a.createdAt !== b.createdAt)
    return a.createdAt > b.createdAt;
  return (a.updatedAt ?? 0) > (b.updatedAt ?? 0);
}

// GETs the sessions a poll must know about but the pages did not settle: no status in the list,
// or seen busy before and on no page read. Returns the ids the service no longer has (404).
async function refetch(
  ctx: ServiceContext,
  previous: Record<string, SeenSession> | undefined,
  found: Map<string, Session>,
): Promise<string[]> {
  const wanted = [...found.values()]
    .filter((s) => s.status === undefined && needsStatus(previous?.[s.sessionId], s))
    .map((s) => s.sessionId);
  for (const [id, seen] of Object.entries(previous ?? {}))
    if (!found.has(id) && seen.status !== undefined && BUSY.has(seen.status)) wanted.push(id);
  const gone: string[] = [];
  for (const id of wanted.slice(0, MAX_SESSION_GETS)) {
    try {
      found.set(id, await getSession(ctx, id));
    } catch (error) {
      if (toHookNotifyError(error).code !== "SERVICE_NOT_FOUND") throw error;
      found.delete(id);
      gone.push(id);
    }
  }
  return gone;
}

function needsStatus(before: SeenSession | undefined, session: Session): boolean {
  return !before || before.status !== "idle" || before.updatedAt !== session.updatedAt;
}
