// Subagent coalescing, the pure part: several SubagentStop notifications of one session become
// one ("3 subagents finished: Explore, Plan, general-purpose"). Held and released by delivery/coalesce-groups.ts.
import { fnv1a64 } from "../fnv1a.js";
import type { CoalescedPart, Notification } from "../core/notification.js";
import { oneLine, truncate } from "./text.js";
import { LAST_MESSAGE_MAX } from "../core/defaults.js";

/** How many subagents get a line of their own in the body; the rest are counted. */
const LISTED_MAX = 8;
const LINE_MAX = 120;

// One notification for all of `parts` (in arrival order). A single part comes back unchanged, so
// one lone SubagentStop looks exactly as it would without coalescing. Deterministic: the same
// parts give the same id, so a worker that re-merges after a crash re-sends the same notification.
export function coalesceNotifications(
  parts: readonly Notification[],
  maxBodyLength: number,
): Notification {
  const [first] = parts;
  const last = parts.at(-1);
  if (!first || !last) throw new Error("coalesceNotifications: no notifications");
  if (parts.length === 1) return first;
  const names = parts.map(agentName);
  const summary = countedNames(names);
  const lines = parts.slice(0, LISTED_MAX).map((part, i) => {
    const said = oneLine(part.lastMessage ?? "");
    return truncate(said ? `• ${names[i] ?? ""}: ${said}` : `• ${names[i] ?? ""}`, LINE_MAX);
  });
  if (parts.length > LISTED_MAX) lines.push(`… and ${parts.length - LISTED_MAX} more`);
  const session = first.sessionTitle ? [`Session: ${oneLine(first.sessionTitle)}`] : [];
  const body = [summary, ...lines, ...session].join("\n");
  const lastMessages = parts
    .filter((part) => part.lastMessage)
    .map((part) => `${agentName(part)}: ${part.lastMessage ?? ""}`);
  const merged: Notification = {
    ...first,
    id: mergedId(parts),
    title: truncate(`${first.project} · ${parts.length} subagents finished`, 200),
    body: truncate(body, Math.max(maxBodyLength, summary.length + 1)),
    lastMessage: truncate(lastMessages.join("\n\n"), LAST_MESSAGE_MAX) || undefined,
    agentType: [...new Set(names)].join(", "),
    timestamp: last.timestamp,
    raw: last.raw,
    coalesced: parts.map(partOf),
  };
  if (merged.lastMessage === undefined) delete merged.lastMessage;
  return merged;
}

// "Explore, Plan ×2, general-purpose": each name once, in order of first arrival, with a count.
export function countedNames(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(", ");
}

function agentName(part: Notification): string {
  return oneLine(part.agentType ?? "") || "subagent";
}

// The first part's id, a "+" and a hash of all ids: readable in the log, unique per set of parts.
function mergedId(parts: readonly Notification[]): string {
  const [first] = parts;
  const hash = fnv1a64(parts.map((part) => part.id).join("\0")).slice(0, 12);
  return `${first?.id ?? ""}+${String(parts.length)}-${hash}`;
}

function partOf(part: Notification): CoalescedPart {
  return {
    id: part.id,
    timestamp: part.timestamp,
    ...(part.agentType ? { agentType: part.agentType } : {}),
    ...(part.lastMessage ? { lastMessage: part.lastMessage } : {}),
  };
}
