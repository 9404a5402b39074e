// The one thing `hook-notify approve` ever prints: Claude Code's PermissionRequest decision, in the
// documented shape (hooks reference, "PermissionRequest decision control").
import type { Decision } from "./answer.js";

/** Told to Claude when the person pressed Deny on the phone. */
export const DENY_MESSAGE =
  "The user denied this permission request from their phone (hook-notify). Do not retry it; ask the user how to proceed.";

// {"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}
export function decisionJson(decision: Decision): string {
  const body =
    decision === "allow" ? { behavior: "allow" } : { behavior: "deny", message: DENY_MESSAGE };
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: "PermissionRequest", decision: body },
  });
}
