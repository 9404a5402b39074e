// The one thing `hook-notify approve` ever prints: the PermissionRequest decision, in the shape
// Claude Code documents (hooks reference, "PermissionRequest decision control"). Codex 0.169.0
// takes the same JSON: its schema permission-request.command.output (in the binary) allows
// hookSpecificOutput {hookEventName "PermissionRequest", decision {behavior allow|deny, message}},
// and fails closed on updatedInput, updatedPermissions or interrupt, which this never sends.
import type { Decision } from "./answer.js";

/** Told to the agent when the person pressed Deny on the phone. */
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
