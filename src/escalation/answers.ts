// When did the person last answer a session? The hook leaves one small marker file per session
// and kind: "prompt" (UserPromptSubmit: the person typed) and "moved" (a Stop: the agent went on,
// so a prompt that blocked it was answered). A pending escalation older than the marker is void.
// A notification the person opened (a banner clicked, a message acknowledged: a sink's receipt)
// leaves an "opened" marker under its own id: its follow-up is void too.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { lstat, readdir, unlink, utimes, writeFile } from "node:fs/promises";
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

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** answered/'s own file: when it was last pruned. Markers are named by hex keys, never like it. */
const PRUNED = ".pruned";

/**
 * Removes the markers older than `maxAgeMs` (the outbox's limit) and an hour: every follow-up one
 * of them could cancel is older still, so the outbox has given it up. At most once a day (the
 * worker asks), in one pass; the number removed.
 */
export async function pruneAnswers(deps: PathDeps, now: number, maxAgeMs: number): Promise<number> {
  const dir = join(stateDir(deps), "answered");
  const stamp = join(dir, PRUNED);
  const last = await lstat(stamp).then(
    (info) => info.mtimeMs,
    () => undefined,
  );
  if (last !== undefined && now - last < DAY_MS) return 0;
  const names = await readdir(dir).catch(() => [] as string[]);
  if (names.length === 0) return 0;
  // Claimed first: a second worker of the day finds it fresh and does nothing.
  const claimed = await writeFile(stamp, "", { mode: 0o600 }).then(
    () => utimes(stamp, now / 1000, now / 1000).then(() => true),
    () => false,
  );
  if (!claimed) return 0;
  let removed = 0;
  for (const name of names) {
    if (name === PRUNED) continue;
    const file = join(dir, name);
    const info = await lstat(file).catch(() => undefined);
    if (info?.isFile() !== true || now - info.mtimeMs <= maxAgeMs + HOUR_MS) continue;
    if (
      await unlink(file).then(
        () => true,
        () => false,
      )
    )
      removed += 1;
  }
  return removed;
}
