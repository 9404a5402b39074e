// Many turns ended between two polls (a wave of completions in a large organisation): one
// notification tells them all instead of a burst of one per session. Pure: the per-session
// notices in, in the order the poll described them, one notice out (a SessionIdle, failed when
// any of those read failed). Only the first MAX_DESCRIBED had their messages read (one request
// each); the counts of the whole wave come from the session list, which costs nothing more.
import { compact } from "../../message/format.js";
import type { Notification } from "../../core/notification.js";
import { idProblem } from "../service-ids.js";
import { MAX_DESCRIBED } from "./sessions.js";
import { shellArg } from "./shell-arg.js";

/** More finished turns than this in one poll go out as one digest. */
export const DIGEST_OVER = 5;
/** Sessions listed by name in the digest's body; the rest is counted. */
const LISTED = 100;

// One notice for `notices` (each a SessionIdle of one session).
export function idleDigest(notices: readonly Notification[]): Notification {
  const first = notices[0];
  if (!first) throw new Error("idleDigest: no notices");
  const read = notices.slice(0, MAX_DESCRIBED);
  const unread = notices.length - read.length;
  const failed = read.filter((n) => n.failure).length;
  const lines = notices.slice(0, LISTED).map((n, i) => {
    const id = n.sessionId ?? "?";
    const who = n.sessionTitle ? `${n.sessionTitle} (${id})` : id;
    if (i >= MAX_DESCRIBED) return `· ${who}`;
    const last = n.lastMessage ? `: ${oneLine(n.lastMessage, 120)}` : "";
    return `${n.failure ? "✗" : "✓"} ${who}${last}`;
  });
  const rest = notices.length - LISTED;
  const sample = notices.find((n) => n.sessionId && !idProblem(n.sessionId))?.sessionId;
  const body = [
    summaryOf(notices),
    ...(unread > 0
      ? [
          `Last answers read for the first ${String(read.length)}; the other ${String(unread)} (·) as the session list tells them.`,
        ]
      : []),
    ...lines,
    ...(rest > 0 ? [`… and ${String(rest)} more (hook-notify sessions list --all).`] : []),
    ...(sample ? [`Answer one: hook-notify sessions send ${shellArg(sample)} -- "…"`] : []),
  ].join("\n");
  const failedNote = failed
    ? ` (${String(failed)} failed${unread > 0 ? ` of ${String(read.length)} read` : ""})`
    : "";
  return {
    ...first,
    failure: failed > 0,
    level: failed > 0 ? "failure" : first.level,
    title: `${first.project} · ${notices.length.toLocaleString("en-US")} sessions finished${failedNote}`,
    body,
    sessionId: undefined,
    sessionTitle: undefined,
    lastMessage: undefined,
    messageCount: undefined,
    tokenUsage: undefined,
  };
}

// "1,000 sessions · 24.5k messages · 1.2M credits": the whole wave, from the list.
function summaryOf(notices: readonly Notification[]): string {
  let messages = 0;
  let credits: number | undefined;
  for (const n of notices) {
    messages += n.messageCount ?? 0;
    const spent = n.tokenUsage?.serviceCredits;
    if (spent !== undefined) credits = (credits ?? 0) + spent;
  }
  return [
    `${notices.length.toLocaleString("en-US")} sessions`,
    `${compact(messages)} messages`,
    ...(credits === undefined ? [] : [`${compact(credits)} credits`]),
  ].join(" · ");
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/[\p{Cc}\s]+/gu, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
