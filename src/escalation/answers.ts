// When did the person last answer a session? The hook leaves one small marker file per session
// and kind: "prompt" (UserPromptSubmit: the person typed) and "moved" (a Stop: the agent went on,
// so a prompt that blocked it was answered). A pending escalation older than the marker is void.
// A notification the person opened (a banner clicked, a message acknowledged: a sink's receipt)
// leaves an "opened" marker under its own id: its follow-up is void too.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stateDir } from "../config/paths.js";
import type { Deps } from "../deps.js";
import { fnv1a64 } from "../fnv1a.js";

export type AnswerKind = "prompt" | "moved" | "opened";

type PathDeps = Pick<Deps, "env" | "homedir" | "platform">;

// Who wrote a UserPromptSubmit's prompt, by its `source` (Claude Code 2.1.332): "user" is the
// person at the composer; "sdk", "system", "loop_wakeup", "schedule_wakeup" and "poll_event" are
// machines (a /loop wakeup, a scheduled task, a peer's message), which answer nothing. Clients
// that send no source (and Claude Code while the field rolls out) are the person typing.
export function promptIsPerson(source: unknown): boolean {
  return source === undefined || source === null || source === "user";
}

// The session id is hashed: markers name no session, and any id is a safe file name.
export function sessionKey(sessionId: string): string {
  return fnv1a64(sessionId);
}

function markerPath(deps: PathDeps, key: string, kind: AnswerKind): string {
  return join(stateDir(deps), "answered", `${key}.${kind}`);
}

// Synchronous and tiny: it runs on the hook path (UserPromptSubmit returns right after it).
export function recordAnswer(
  deps: PathDeps,
  sessionId: string,
  kind: AnswerKind,
  now: number,
  keyOf: (id: string) => string = sessionKey,
) {
  try {
    const file = markerPath(deps, keyOf(sessionId), kind);
    mkdirSync(join(file, ".."), { recursive: true, mode: 0o700 });
    writeFileSync(file, String(now), { mode: 0o600 });
  } catch {
    // Best effort: a missing marker means one follow-up too many, never a lost notification.
  }
}

// The time of the last answer of that kind, or undefined.
export function answeredAt(deps: PathDeps, key: string, kind: AnswerKind): number | undefined {
  try {
    const value = Number(readFileSync(markerPath(deps, key, kind), "utf8"));
    return Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

// The marker key of one notification (not a session): a sink reported it opened.
export function notificationKey(notificationId: string): string {
  return fnv1a64(`notification\0${notificationId}`);
}
