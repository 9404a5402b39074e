// Which sessions finished a turn since the last poll. Pure: the previous state, what the service
// says now and when the last poll started in; the facts and the next state out. A turn ended when
// a session is idle now and was busy before, or has more messages, a new completedAt, or (with no
// message count to compare) a new updatedAt; or when it was created after the last poll and is
// already idle with messages (created and finished between two polls).
import type { TokenUsage } from "../../core/notification.js";
import type { Session } from "../schemas.js";
import type { SeenSession } from "./state.js";
import { own, setOwn } from "../../own.js";

/** A finished turn of a cloud session, as the notice needs it. */
export interface SessionIdleFact {
  kind: "SessionIdle";
  sessionId: string;
  title?: string | undefined;
  /** running or pending (seen busy), idle (a follow-up turn in between), new (never seen). */
  from: string;
  messageCount?: number | undefined;
  computerId?: string | undefined;
  /** The last assistant message was an error (isError): announced as a failure. */
  failure?: boolean | undefined;
  lastMessage?: string | undefined;
  /** The messages carried no order (no createdAt, updatedAt or parentId): the last listed. */
  orderGuessed?: boolean | undefined;
  tokenUsage?: TokenUsage | undefined;
}

const BUSY = new Set(["running", "pending"]);
/** How far the service's clock may lag this machine's without a new session going unseen. */
const CLOCK_SLACK_MS = 60_000;

// `previous` undefined is the baseline: everything is recorded, nothing announced. Sessions not
// in `sessions` keep their old state (a poll may read only part of a long list).
export function detectSessions(
  previous: Record<string, SeenSession> | undefined,
  sessions: readonly Session[],
  lastPollAt?: number,
): { facts: SessionIdleFact[]; next: Record<string, SeenSession> } {
  const next: Record<string, SeenSession> = { ...previous };
  const facts: SessionIdleFact[] = [];
  for (const session of sessions) {
    const before = previous && own(previous, session.sessionId);
    // A list item without status (not shown whether it has one) changes nothing.
    if (session.status === undefined && before) continue;
    setOwn(next, session.sessionId, seenOf(session));
    if (!previous || session.status !== "idle") continue;
    const from = turnEndedFrom(before, session, lastPollAt);
    if (from) facts.push(factOf(session, from));
  }
  return { facts, next };
}

function seenOf(session: Session): SeenSession {
  return {
    status: session.status,
    updatedAt: session.updatedAt,
    messageCount: session.messageCount,
    completedAt: session.completedAt ?? 0,
  };
}

// What the session was before this idle, when that is a turn to announce; else undefined.
function turnEndedFrom(
  before: SeenSession | undefined,
  session: Session,
  lastPollAt: number | undefined,
): string | undefined {
  if (!before) {
    // lastPollAt is this machine's clock, createdAt the service's: allow them to differ a bit.
    const isNew =
      lastPollAt !== undefined && (session.createdAt ?? 0) > lastPollAt - CLOCK_SLACK_MS;
    return isNew && (session.messageCount ?? 0) > 0 ? "new" : undefined;
  }
  if (before.status !== undefined && BUSY.has(before.status)) return before.status;
  if (session.messageCount !== undefined && before.messageCount !== undefined)
    if (session.messageCount > before.messageCount) return "idle";
  const completed = session.completedAt ?? 0;
  if (before.completedAt !== undefined && completed !== 0 && completed !== before.completedAt)
    return "idle";
  const noCounts = session.messageCount === undefined || before.messageCount === undefined;
  const updated = before.updatedAt !== undefined && session.updatedAt !== before.updatedAt;
  return noCounts && updated && session.updatedAt !== undefined ? "idle" : undefined;
}

function factOf(session: Session, from: string): SessionIdleFact {
  return {
    kind: "SessionIdle",
    sessionId: session.sessionId,
    title: session.title?.trim() || undefined,
    from,
    messageCount: session.messageCount,
    ...(session.computerId ? { computerId: session.computerId } : {}),
  };
}
