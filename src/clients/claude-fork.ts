// What the clients built on Claude Code's hooks share (Qwen Code, Qoder CLI): Claude Code's names
// and fields, with a transcript of their own (not read here) and a login Notification to skip.
import { compact } from "./adapter.js";

/** Their events that notify, under Claude Code's names. */
export const CLAUDE_FORK_EVENTS = {
  Notification: "Notification",
  Stop: "Stop",
  SubagentStop: "SubagentStop",
  StopFailure: "StopFailure",
  SessionEnd: "SessionEnd",
} as const;

// Claude Code's payload, minus the transcript path; a login's Notification "auth_success" is
// nothing a person waits for.
export function claudeForkToCanonical(raw: Record<string, unknown>): Record<string, unknown> {
  if (raw["hook_event_name"] === "Notification" && raw["notification_type"] === "auth_success") {
    return { hook_event_name: "Notification (auth_success)" };
  }
  const out: Record<string, unknown> = { ...raw };
  delete out["transcript_path"];
  return compact(out);
}

// True for a payload whose transcript lies in the client's own folder ("/.qwen/"): Claude Code's
// payload, told apart before the path is dropped.
export function transcriptIn(dir: string): (raw: Record<string, unknown>) => boolean {
  return (raw) =>
    typeof raw["transcript_path"] === "string" &&
    raw["transcript_path"].replaceAll("\\", "/").includes(dir);
}
