// `sessions list` and `sessions messages`: the newest first, whatever order the service lists in.
// The document gives no order parameter and no cursor that starts from the list's end, so a list
// that comes oldest first (the live service's sessions) is read to its end (100 at a time, at
// most MAX_PAGES, with a progress line) to find the newest `--limit`; a list that comes newest
// first stops reading as soon as it has them. `--all` shows everything read.
import { HookNotifyError } from "../errors.js";
import type { ServiceContext } from "../service/http.js";
import type { Message, Session } from "../service/schemas.js";
import { isVisible, orderMessages } from "../service/message-order.js";
import { getSessionPage, listMessages, MESSAGE_ROLES } from "../service/session-api.js";
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
    if (page > 1)
      io.err(
        `hook-notify sessions list: reading page ${String(page)}…${page === 2 && !comesNewestFirst(sessions) ? " (the list comes oldest first and has no order parameter: the newest are at its end)" : ""}`,
      );
    const result = await getSessionPage(ctx, { cursor, computerId: o.computer });
    sessions.push(...result.items);
    cursor = result.nextCursor ?? undefined;
    if (!result.hasMore || !cursor) break;
    // A list that comes newest first has the newest `--limit` on its first pages.
    if (sessions.length >= shown && comesNewestFirst(sessions)) break;
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
  if (newest.length === 0) {
    io.err(
      `hook-notify sessions list: no sessions${o.computer ? ` on computer ${cell(o.computer)}` : ""}.`,
    );
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

// A session's messages, oldest to newest: the last `--limit` (all with --all), each with who
// said it. The document's Message has no role: the role is the one asked for (--role), else the
// message's own field when the service sends one, else learnt from one listing per role. Hidden
// messages (isUserVisible false) only with --all, marked.
export async function messagesAction(
  ctx: ServiceContext,
  io: CommandIo,
  o: SessionsRun,
): Promise<void> {
  const shown = shownCount(o);
  const query = { role: o.role, computerId: o.computer };
  const listed: Message[] = [];
  let visible = 0;
  for await (const message of listMessages(ctx, o.id ?? "", query, MAX_PAGES)) {
    listed.push(message);
    if (o.all || isVisible(message)) visible++;
    // A list that comes newest first has the last `--limit` on its first pages.
    if (visible >= shown && comesNewestFirst(listed)) break;
  }
  const { messages, guessed } = orderMessages(listed);
  const kept = o.all ? messages : messages.filter(isVisible);
  const last = kept.slice(-shown);
  const roles = o.role || last.every((m) => m.role) ? undefined : await rolesOf(ctx, o, last);
  const roleOf = (m: Message): string => o.role ?? m.role ?? roles?.get(m.id) ?? "message";
  if (o.json) {
    io.out(
      JSON.stringify(
        last.map((m) => ({ ...m, role: roleOf(m) })),
        null,
        2,
      ),
    );
    return;
  }
  if (last.length === 0) {
    const hidden = messages.length - kept.length;
    io.err(
      `hook-notify sessions messages: no ${o.role ? `${o.role} ` : ""}messages${hidden > 0 ? ` (${String(hidden)} hidden; --all shows them)` : ""}.`,
    );
    return;
  }
  if (guessed)
    io.err(
      "hook-notify sessions messages: the messages carry no time or parent; shown in the order listed.",
    );
  for (const m of last) {
    const marks = [m.isError ? "error" : "", isVisible(m) ? "" : "hidden"].filter(Boolean);
    const who = `${roleOf(m)}${marks.length ? ` (${marks.join(", ")})` : ""}`;
    io.out(`${timeOf(m.createdAt)}  ${who}: ${cell(textOf(m), 500)}`);
  }
}

// The role of each of `wanted`, from one listing per role (the messages carry none), stopping as
// soon as every one is known, and a newest-first listing once it is past the oldest wanted.
async function rolesOf(
  ctx: ServiceContext,
  o: SessionsRun,
  wanted: readonly Message[],
): Promise<Map<string, string>> {
  const roles = new Map<string, string>();
  const ids = new Set(wanted.map((m) => m.id));
  const oldest = Math.min(...wanted.map((m) => m.createdAt ?? Number.NEGATIVE_INFINITY));
  for (const role of MESSAGE_ROLES) {
    const query = { role, computerId: o.computer };
    const listed: Message[] = [];
    for await (const message of listMessages(ctx, o.id ?? "", query, MAX_PAGES)) {
      listed.push(message);
      if (ids.has(message.id)) roles.set(message.id, role);
      if (roles.size === ids.size) return roles;
      if ((message.createdAt ?? oldest) < oldest && comesNewestFirst(listed)) break;
    }
  }
  return roles;
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

// Newest first when the first item listed was created after the last one read so far (sessions),
// or for messages also when their parentId links point down the list.
function comesNewestFirst(items: readonly (Session | Message)[]): boolean {
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last || first === last) return false;
  if (first.createdAt !== undefined && last.createdAt !== undefined)
    return first.createdAt > last.createdAt;
  return "id" in first && orderMessages(items as Message[]).messages[0] === last;
}

function recency(session: Session): number {
  return session.updatedAt ?? session.createdAt ?? 0;
}
