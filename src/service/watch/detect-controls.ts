// What changed in the settings (the controls) since the last poll, as one fact to announce
// (detect-computers.ts does the same for the computers). Pure: the last revision seen and the
// history the service gives in, the fact and the next revision out. A first poll (nothing seen)
// is the baseline and announces nothing.
import type { ControlChange } from "../schemas.js";
import { diffSettings, type SettingChange } from "./diff-settings.js";

export interface ControlsFact {
  kind: "ControlsChanged";
  /** The newest revision. */
  revision: number;
  /** How many revisions are new; `more` when older ones were beyond the pages read. */
  count: number;
  more: boolean;
  user?: string | undefined;
  updatedAt?: string | undefined;
  changes: SettingChange[];
}

// The revisions after `lastSeen` as one fact: how many, who made the newest, and the diff from
// the last seen settings to the newest (a burst of changes is one notification, not twenty).
// `history` is newest first and reaches lastSeen when the pages read allowed; when it does not,
// the count is a lower bound (`more`) and the diff starts at the oldest revision read.
export function detectControls(
  lastSeen: number | undefined,
  history: readonly ControlChange[],
): { facts: ControlsFact[]; next: number | undefined } {
  const latest = history[0];
  if (lastSeen === undefined || latest === undefined)
    return { facts: [], next: latest?.revision ?? lastSeen };
  const fresh = history.filter((change) => change.revision > lastSeen);
  if (fresh.length === 0) return { facts: [], next: Math.max(latest.revision, lastSeen) };
  const base = history.find((change) => change.revision <= lastSeen);
  const users = [...new Set(fresh.map(userOf).filter((u): u is string => u !== undefined))];
  const fact: ControlsFact = {
    kind: "ControlsChanged",
    revision: latest.revision,
    count: fresh.length,
    more: base === undefined,
    user: users.join(", ") || undefined,
    updatedAt: latest.updatedAt,
    changes: diffSettings(base?.settings ?? fresh.at(-1)?.settings ?? {}, latest.settings ?? {}),
  };
  return { facts: [fact], next: latest.revision };
}

function userOf(change: ControlChange): string | undefined {
  return change.user?.name ?? change.user?.email ?? change.user?.id;
}
