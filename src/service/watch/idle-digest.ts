// Many turns ended between two polls (a wave of completions in a large organisation): one
// notification lists them all instead of a burst of one per session. Pure: the per-session
// notices in, one notice out (a SessionIdle, failed when any of them failed).
import type { Notification } from "../../core/notification.js";
import { idProblem } from "../http.js";
import { shellArg } from "./shell-arg.js";

/** More finished turns than this in one poll go out as one digest. */
export const DIGEST_OVER = 5;
/** Lines listed in the digest's body; the rest is counted. */
const LISTED = 30;

// One notice for `notices` (each a SessionIdle of one session).
export function idleDigest(notices: readonly Notification[]): Notification {
  const first = notices[0];
  if (!first) throw new Error("idleDigest: no notices");
  const failed = notices.filter((n) => n.failure).length;
  const lines = notices.slice(0, LISTED).map((n) => {
    const id = n.sessionId ?? "?";
    const who = n.sessionTitle ? `${n.sessionTitle} (${id})` : id;
    const last = n.lastMessage ? `: ${oneLine(n.lastMessage, 120)}` : "";
    return `${n.failure ? "✗" : "✓"} ${who}${last}`;
  });
  const rest = notices.length - LISTED;
  const sample = notices.find((n) => n.sessionId && !idProblem(n.sessionId))?.sessionId;
  const body = [
    ...lines,
    ...(rest > 0 ? [`… and ${String(rest)} more (hook-notify sessions list).`] : []),
    ...(sample ? [`Answer one: hook-notify sessions send ${shellArg(sample)} -- "…"`] : []),
  ].join("\n");
  return {
    ...first,
    failure: failed > 0,
    level: failed > 0 ? "failure" : first.level,
    title: `${first.project} · ${String(notices.length)} sessions finished${failed ? ` (${String(failed)} failed)` : ""}`,
    body,
    sessionId: undefined,
    sessionTitle: undefined,
    lastMessage: undefined,
    messageCount: undefined,
    tokenUsage: undefined,
  };
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/[\p{Cc}\s]+/gu, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
