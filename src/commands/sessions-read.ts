// `sessions list` and `sessions messages`: the newest first, whatever order the service lists in
// (the live service lists sessions oldest first, and the order of messages is not documented), so
// every page is read (100 at a time, at most MAX_PAGES, with a progress line) and the newest
// `--limit` are shown; `--all` shows everything read.
import { HookNotifyError } from "../errors.js";
import type { ServiceContext } from "../service/http.js";
import type { Message, Session } from "../service/schemas.js";
import { getSessionPage, listMessages } from "../service/session-api.js";
import { textOf } from "../service/watch/describe-turn.js";
import { formatTable } from "../style.js";
import { cell, timeOf } from "./cells.js";
import type { CommandIo } from "./service-command.js";
import type { SessionsRun } from "./sessions-run.js";

/** Pages read at most (100 items each) before showing the newest of what was read. */
const MAX_PAGES = 50;
const DEFAULT_SHOWN = 20;

// The sessions, newest (last updated) first: the table or --json.
export async function listAction(
  ctx: ServiceContext,
  io: CommandIo,
  o: SessionsRun,
): Promise<void> {
  const shown = shownCount(o);
  const sessions: Session[] = [];
  let cursor: string | undefined;
  for (let page = 1; page <= MAX_PAGES; page++) {
    if (page > 1) io.err(`hook-notify sessions list: reading page ${String(page)}…`);
    const result = await getSessionPage(ctx, { cursor, computerId: o.computer });
    sessions.push(...result.items);
    cursor = result.nextCursor ?? undefined;
    if (!result.hasMore || !cursor) break;
    if (page === MAX_PAGES)
      io.err(
        `hook-notify sessions list: more than ${String(MAX_PAGES * 100)} sessions; showing the newest of those read.`,
      );
  }
  const newest = [...sessions].sort((a, b) => recency(b) - recency(a)).slice(0, shown);
  if (o.json) {
    io.out(JSON.stringify(newest, null, 2));
    return;
  }
  const rows = newest.map((s) => [
    s.sessionId,
    s.status ?? "?",
    String(s.messageCount ?? "?"),
    timeOf(s.updatedAt),
    cell(s.title ?? ""),
  ]);
  for (const line of formatTable(["SESSION", "STATUS", "MESSAGES", "UPDATED", "TITLE"], rows))
    io.out(line);
}

// A session's messages, oldest to newest: the last `--limit` (all with --all).
export async function messagesAction(
  ctx: ServiceContext,
  io: CommandIo,
  o: SessionsRun,
): Promise<void> {
  const shown = shownCount(o);
  const query = { role: o.role, computerId: o.computer };
  const messages: Message[] = [];
  for await (const message of listMessages(ctx, o.id ?? "", query, MAX_PAGES))
    messages.push(message);
  const ordered = messages.every((m) => m.createdAt !== undefined)
    ? [...messages].sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0))
    : messages;
  const last = ordered.slice(-shown);
  if (o.json) {
    io.out(JSON.stringify(last, null, 2));
    return;
  }
  for (const m of last) {
    const who = `${m.role ?? "message"}${m.isError ? " (error)" : ""}`;
    io.out(`${timeOf(m.createdAt)}  ${who}: ${cell(textOf(m), 500)}`);
  }
}

// --limit (how many to show), or everything with --all.
function shownCount(o: SessionsRun): number {
  if (o.all) return Number.POSITIVE_INFINITY;
  const limit = o.limit ?? DEFAULT_SHOWN;
  if (!Number.isInteger(limit) || limit < 1)
    throw new HookNotifyError(
      "USAGE",
      `--limit must be a whole number of 1 or more (got ${String(limit)}).`,
    );
  return limit;
}

function recency(session: Session): number {
  return session.updatedAt ?? session.createdAt ?? 0;
}
