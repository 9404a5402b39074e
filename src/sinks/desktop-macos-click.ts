// macOS, in the background worker: a click on the banner selects the agent's own iTerm2 session
// (window, tab and split pane), not only the app. terminal-notifier (node-notifier's, which waits
// with -timeout and says how the banner ended with -json) is followed for the sink's
// focusSeconds; on a click, osascript runs a fixed AppleScript that gets the session's unique id
// as its one argument (iTerm2's `unique id` and `select`). Argument arrays only, never a shell.
import { withDeadline } from "../abort.js";
import type { Deps } from "../deps.js";
import { runProgram } from "./run-program.js";
import type { BannerEnd } from "./sink.js";

/** The script osascript runs at the click; the session's id arrives as the last argv item. */
export const ITERM_SELECT_LINES = [
  "on run argv",
  "set wanted to item -1 of argv",
  'tell application "iTerm2"',
  "repeat with w in windows",
  "repeat with t in tabs of w",
  "repeat with s in sessions of t",
  "if (unique id of s) is wanted then",
  "select w",
  "select t",
  "select s",
  "activate",
  "return",
  "end if",
  "end repeat",
  "end repeat",
  "end repeat",
  "end tell",
  'error "no iTerm2 session has that id"',
  "end run",
];

// osascript's arguments for one session id (checked by focus/place.ts: a UUID).
export function itermSelectArgs(session: string): string[] {
  return [...ITERM_SELECT_LINES.flatMap((line) => ["-e", line]), "--", session];
}

// terminal-notifier's extra arguments while it is followed: it waits up to `seconds` for the
// banner's end and prints it as JSON.
export function followArgs(seconds: number): string[] {
  return ["-timeout", String(Math.round(seconds)), "-json"];
}

// How terminal-notifier's JSON says the banner ended: clicked, or closed (timed out, dismissed).
export function endOf(stdout: string): "clicked" | "closed" | undefined {
  let type: unknown;
  try {
    type = (JSON.parse(stdout) as { activationType?: unknown }).activationType;
  } catch {
    return undefined;
  }
  if (typeof type !== "string") return undefined;
  return /clicked$|^activate/i.test(type) ? "clicked" : "closed";
}

/** What a followed banner needs: terminal-notifier's path and arguments, the session, the bound. */
export interface ItermFollow {
  notifier: string;
  args: readonly string[];
  session: string;
  seconds: number;
  osascript: string | undefined;
}

// Runs terminal-notifier until the banner ends (bounded by its own -timeout, and by ours a little
// later); a click selects the session. Never rejects: a failure is an "unknown" end.
export async function followIterm(
  follow: ItermFollow,
  deps: Pick<Deps, "env">,
  sinkName: string,
): Promise<BannerEnd> {
  const id = follow.session;
  let stdout = "";
  const run = (path: string, args: readonly string[], ms: number) =>
    withDeadline(ms, (signal) =>
      runProgram(path, args, {
        env: deps.env,
        signal,
        wait: true,
        sinkName,
        settleMs: 0,
        onOutput: (text) => (stdout = text),
      }),
    );
  try {
    await run(follow.notifier, follow.args, (follow.seconds + 10) * 1000);
  } catch (error) {
    return { ended: "unknown", id, reason: messageOf(error) };
  }
  const ended = endOf(stdout);
  if (ended === undefined)
    return { ended: "unknown", id, reason: "terminal-notifier said nothing" };
  if (ended === "closed") return { ended, id, reason: "not clicked" };
  if (!follow.osascript) return { ended, id, reason: "osascript not found" };
  try {
    await run(follow.osascript, itermSelectArgs(id), 5_000);
    return { ended, id, reason: `iTerm2 session ${id} selected` };
  } catch (error) {
    return { ended, id, reason: `iTerm2 session not selected: ${messageOf(error)}` };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
