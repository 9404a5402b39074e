// The sessions part of a watch poll, with a number of requests bounded by a constant however long
// the list (MAX_POLL_LISTS list requests, MAX_SESSION_GETS GETs, MAX_DESCRIBED turns described).
// The document gives the session list no order, no filter by update time and no way to start
// from its end, so each poll reads the first page, the list's end from the cursor saved last
// time (new sessions; a newest-first list is read down to the last poll instead), a few pages of
// a rolling sweep (follow-up turns of older sessions, found a few polls late but found), and the
// pages on which sessions were seen busy, again by the cursor each was read with (BUSY_PAGES a
// poll, the longest unread first): a page tells 100 statuses for one request. Sessions seen busy
// that no page showed are asked for one by one. `computerIds` narrows every read to those
// computers (the documented filter). Sessions gone from the service are dropped from the state:
// a 404 on their GET, or not seen on any page during a whole round of the sweep.
import type { ServiceContext } from "../http.js";
import type { Session } from "../schemas.js";
import { getSessionPage } from "../session-api.js";
import { getSession } from "../client.js";
import { toHookNotifyError } from "../../errors.js";
import { describeTurn, usageOf } from "./describe-turn.js";
import { detectSessions, type SessionIdleFact } from "./detect-sessions.js";
import {
  isNewestFirst,
  readPages,
  readPagesAt,
  readSaved,
  type SessionPage,
} from "./session-pages.js";
import type { SeenSession, SessionCursors, WatchState } from "./state.js";

/** Pages the first poll may read (the baseline), and each later poll at the list's end. */
export const FIRST_POLL_PAGES = 50;
export const POLL_PAGES = 5;
/** Pages of the rolling sweep, and pages re-read for the sessions seen busy on them, per poll. */
export const SWEEP_PAGES = 2;
export const BUSY_PAGES = 10;
/** List requests of a poll after the first, per list scope, however long the list. */
export const MAX_POLL_LISTS = 1 + POLL_PAGES + SWEEP_PAGES + BUSY_PAGES;
/** Sessions fetched one by one (status missing, or busy and on no page read), per poll. */
export const MAX_SESSION_GETS = 50;
/** Finished turns whose last answer is read, per poll (the digest lists 30). */
export const MAX_DESCRIBED = 30;
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
  const where = new Map<string, { scope: string; cursor: string }>();
  const looked = new Set<string>();
  const prune = new Map<string, number>();
  const warnings: string[] = [];
  const cursors: Record<string, SessionCursors> = { ...state.sessionCursors };
  const pages = state.sessions === undefined ? FIRST_POLL_PAGES : POLL_PAGES;
  for (const scope of options.computerIds.length > 0 ? options.computerIds : [""]) {
    const saved: SessionCursors = { ...cursors[scope] };
    let read: ScopeRead;
    try {
      const busy = busyPages(state.sessions, scope);
      read = await readScope(ctx, scope, saved, { pages, since: state.sessionsPolledAt, busy });
    } catch (error) {
      // The poll fails, but what readSaved learnt about the saved cursors is kept.
      state.sessionCursors = { ...cursors, [scope]: saved };
      throw error;
    }
    cursors[scope] = roundOf(read, saved, options.now, (from) => prune.set(scope, from));
    for (const cursor of read.looked) looked.add(placeOf(scope, cursor));
    for (const page of read.pages)
      for (const session of page.items) {
        found.set(session.sessionId, session);
        where.set(session.sessionId, { scope, cursor: page.cursor });
      }
    if (read.capped)
      warnings.push(
        `sessions${scope ? ` of computer ${scope}` : ""}: the list is longer than ${String(pages)} pages; the rest is read on the next polls.`,
      );
  }
  const settle = (seen: SeenSession) =>
    seen.page === undefined || looked.has(placeOf(seen.scope ?? "", seen.page));
  const gone = await refetch(ctx, state.sessions, found, settle);
  const { facts, next } = detectSessions(
    state.sessions,
    [...found.values()],
    state.sessionsPolledAt,
  );
  const kept: Record<string, SeenSession> = {};
  for (const [id, seen] of Object.entries(next)) {
    const at = where.get(id);
    const now = found.has(id) ? options.now : seen.seenAt;
    const entry = { ...seen, ...(at ? { page: at.cursor, scope: at.scope || undefined } : {}) };
    const cut = prune.get(entry.scope ?? "");
    if (gone.includes(id) || (cut !== undefined && (now ?? 0) < cut)) continue;
    kept[id] = { ...entry, seenAt: now };
  }
  Object.assign(state, { sessions: kept, sessionsPolledAt: options.now, sessionCursors: cursors });
  // Each described turn costs a messages request: a wave is described only as far as its
  // digest lists it (the rest go out with what the list says: title, messages, token use).
  for (const fact of facts) {
    const usage = usageOf(found.get(fact.sessionId));
    if (usage) fact.tokenUsage = usage;
  }
  for (const fact of facts.slice(0, MAX_DESCRIBED)) await describeTurn(ctx, fact);
  return { facts, warnings };
}

interface ScopeRead {
  pages: SessionPage[];
  /** The cursors of every page asked for (read, or refused). */
  looked: Set<string>;
  cursors: SessionCursors;
  capped: boolean;
  /** The whole list was read on this poll (one page), or the sweep ended its round. */
  complete: boolean;
}

async function readScope(
  ctx: ServiceContext,
  scope: string,
  saved: SessionCursors,
  limits: { pages: number; since: number | undefined; busy: string[] },
): Promise<ScopeRead> {
  const computerId = scope || undefined;
  const first = await getSessionPage(ctx, { computerId });
  const firstPage = { cursor: "", items: first.items };
  if (!first.hasMore || !first.nextCursor)
    return {
      pages: [firstPage],
      looked: new Set([""]),
      cursors: {},
      capped: false,
      complete: true,
    };
  const read = (cursor: string, pages: number, stop?: (page: Session[]) => boolean) =>
    readPages(ctx, computerId, cursor, pages, stop);
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
  const pages = [firstPage, ...tail.pages, ...sweep.pages];
  const looked = new Set(pages.map((p) => p.cursor));
  const again = limits.busy.filter((cursor) => !looked.has(cursor)).slice(0, BUSY_PAGES);
  for (const cursor of again) looked.add(cursor);
  pages.push(...(await readPagesAt(ctx, computerId, again)));
  return {
    pages,
    looked,
    cursors: { ...(newest ? {} : { tail: tail.last }), sweep: sweep.done ? undefined : sweep.next },
    capped: tail.capped,
    complete: sweep.done,
  };
}

// The scope's cursors for the next poll, with when the sweep's round started. When the round
// ends (or the whole list fit on this poll), `ended` gets the time before which a session not
// seen is gone. `saved.sweep` is undefined after the read when the round started on this poll.
function roundOf(
  read: ScopeRead,
  saved: SessionCursors,
  now: number,
  ended: (from: number) => void,
): SessionCursors {
  const from = saved.sweep === undefined ? now : saved.sweepFrom;
  if (read.complete) {
    if (from !== undefined) ended(from);
    return read.cursors;
  }
  return { ...read.cursors, sweepFrom: from };
}

// The cursors of the pages where sessions of `scope` were last seen busy, the longest unseen
// first ("" the first page, read anyway, left out).
function busyPages(previous: Record<string, SeenSession> | undefined, scope: string): string[] {
  const oldest = new Map<string, number>();
  for (const seen of Object.values(previous ?? {})) {
    if (!BUSY.has(seen.status ?? "") || !seen.page || (seen.scope ?? "") !== scope) continue;
    oldest.set(seen.page, Math.min(oldest.get(seen.page) ?? Infinity, seen.seenAt ?? 0));
  }
  return [...oldest].sort((a, b) => a[1] - b[1]).map(([cursor]) => cursor);
}

function placeOf(scope: string, cursor: string): string {
  return `${scope}\n${cursor}`;
}

// GETs the sessions a poll must know about but the pages did not settle: no status in the list,
// or seen busy before, on no page read, and with no page of its own to look at later (`settle`:
// none saved, or it was read and the session was not on it). Returns the ids the service no
// longer has (404).
async function refetch(
  ctx: ServiceContext,
  previous: Record<string, SeenSession> | undefined,
  found: Map<string, Session>,
  settle: (seen: SeenSession) => boolean,
): Promise<string[]> {
  const wanted = [...found.values()]
    .filter((s) => s.status === undefined && needsStatus(previous?.[s.sessionId], s))
    .map((s) => s.sessionId);
  for (const [id, seen] of Object.entries(previous ?? {}))
    if (!found.has(id) && BUSY.has(seen.status ?? "") && settle(seen)) wanted.push(id);
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
