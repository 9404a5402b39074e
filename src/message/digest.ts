// The digest, the pure part: notifications held while the person was away (delivery/digest.ts)
// become one, with a few lines per session: its title, what ended, what failed, what waits for
// you, and its last message. Every piece of outside text is made inert and put on one line here
// again, whatever the parts' own formatting did. Deterministic: the same parts give the same id.
import { fnv1a64 } from "../fnv1a.js";
import type { DigestPart, Level, Notification } from "../core/notification.js";
import { oneLine, stripControl, truncate } from "./text.js";

/** Sessions listed in the body; the rest are counted. */
const SESSIONS_MAX = 20;
const LINE_MAX = 160;
/** The whole body: a remote sink gets all of it, a banner shows what it can. */
export const DIGEST_BODY_MAX = 4000;

// One notification for all of `parts` (in arrival order), or an error for none.
export function composeDigest(parts: readonly Notification[]): Notification {
  const last = parts.at(-1);
  if (!last) throw new Error("composeDigest: no notifications");
  const sessions = bySession(parts);
  const failed = parts.filter((part) => part.failure).length;
  const waiting = parts.filter((part) => part.level === "attention").length;
  const counts = [
    `${String(sessions.length)} session${sessions.length === 1 ? "" : "s"}`,
    ...(failed > 0 ? [`${String(failed)} failed`] : []),
    ...(waiting > 0 ? [`${String(waiting)} waiting for you`] : []),
  ];
  // Only what the digest itself is: no one session's details (its id, title, last message).
  return {
    id: `digest-${fnv1a64(parts.map((part) => part.id).join("\0")).slice(0, 12)}`,
    event: last.event,
    level: failed > 0 ? "failure" : waiting > 0 ? "attention" : quietestLevel(parts),
    failure: failed > 0,
    title: `While you were away: ${counts.join(", ")}`,
    body: bodyOf(sessions),
    project: [...new Set(parts.map((part) => part.project))].join(", "),
    timestamp: last.timestamp,
    raw: {},
    digest: parts.map(partOf),
  };
}

// A digest of nothing that failed or waits: "done" when a turn or session ended, else a usage
// limit's or a notice's level (which play no sound and never escalate).
function quietestLevel(parts: readonly Notification[]): Level {
  if (parts.some((part) => part.level === "done")) return "done";
  return parts.some((part) => part.level === "limit") ? "limit" : "info";
}

// Whole sessions while they fit (at most SESSIONS_MAX), then a count of the rest.
function bodyOf(sessions: readonly Notification[][]): string {
  const kept: string[] = [];
  let length = 0;
  let listed = 0;
  for (const session of sessions.slice(0, SESSIONS_MAX)) {
    const text = sessionLines(session).join("\n");
    // Room for the text, its newline and a last "… and N more sessions" line.
    if (length + text.length + 1 > DIGEST_BODY_MAX - 40) break;
    kept.push(text);
    length += text.length + 1;
    listed++;
  }
  const rest = sessions.length - listed;
  if (rest > 0) kept.push(`… and ${String(rest)} more session${rest === 1 ? "" : "s"}`);
  return kept.join("\n");
}

// Sessions in the order they first appear; parts without a session id share one group per project.
function bySession(parts: readonly Notification[]): Notification[][] {
  const groups = new Map<string, Notification[]>();
  for (const part of parts) {
    const key = [part.client ?? "", part.sessionId ?? `project:${part.project}`].join("\0");
    groups.set(key, [...(groups.get(key) ?? []), part]);
  }
  return [...groups.values()];
}

// "• api · Fix the login bug", then what ended, failed and waits, then the last message.
function sessionLines(parts: readonly Notification[]): string[] {
  const last = parts.at(-1) as Notification;
  const title = clean(parts.findLast((part) => part.sessionTitle)?.sessionTitle ?? "");
  const heading = `• ${clean(last.project)}${title ? ` · ${title}` : ""}`;
  const ended = parts.filter((part) => part.level === "done");
  const failed = parts.filter((part) => part.failure);
  const waits = parts.filter((part) => part.level === "attention");
  const limits = parts.filter((part) => part.level === "limit");
  const notes = parts.filter((part) => part.level === "info");
  const said = clean(parts.findLast((part) => part.lastMessage)?.lastMessage ?? "");
  return [
    truncate(heading, LINE_MAX),
    ...(ended.length > 0 ? [line("ended", ended.map(endedOf))] : []),
    ...(failed.length > 0 ? [line("failed", failed.map(failedOf))] : []),
    ...(waits.length > 0 ? [line("waits for you", waits.map(waitsOf))] : []),
    ...(limits.length > 0 ? [line("usage limit", limits.map(failedOf))] : []),
    ...(notes.length > 0 ? [line("noted", notes.map(waitsOf))] : []),
    ...(said ? [truncate(`  last: ${said}`, LINE_MAX)] : []),
  ];
}

function line(label: string, what: string[]): string {
  return truncate(`  ${label}: ${counted(what)}`, LINE_MAX);
}

// "turn finished ×2, subagent Explore finished": each phrase once, in order, with a count.
function counted(phrases: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const phrase of phrases) counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
  return [...counts].map(([phrase, n]) => (n > 1 ? `${phrase} ×${String(n)}` : phrase)).join(", ");
}

function endedOf(part: Notification): string {
  if (part.event === "Stop") return "turn finished";
  if (part.event === "SubagentStop") {
    const agent = clean(part.agentType ?? "");
    return agent ? `subagent ${agent} finished` : "subagent finished";
  }
  if (part.event === "SessionEnd")
    return `session ended${part.reason ? ` (${clean(part.reason)})` : ""}`;
  return clean(part.title) || part.event;
}

// The notification's own title without its "project · " prefix: "Agent stopped on an error (…)".
function failedOf(part: Notification): string {
  const title = clean(part.title);
  const prefix = `${clean(part.project)} · `;
  return (title.startsWith(prefix) ? title.slice(prefix.length) : title) || part.event;
}

function waitsOf(part: Notification): string {
  return clean(part.message ?? "") || clean(part.title) || part.event;
}

function clean(text: string): string {
  return oneLine(stripControl(text));
}

function partOf(part: Notification): DigestPart {
  return {
    id: part.id,
    event: part.event,
    timestamp: part.timestamp,
    ...(part.sessionId ? { sessionId: part.sessionId } : {}),
  };
}
