// The one thing `hook-notify approve` ever prints: the PermissionRequest decision, in the shape
// Claude Code documents (hooks reference, "PermissionRequest decision control"; 2.1.332's schema:
// allow with optional updatedPermissions, deny with optional message). Codex 0.171.0 takes the
// same JSON: its schema permission-request.command.output (in the binary) allows
// hookSpecificOutput {hookEventName "PermissionRequest", decision {behavior allow|deny, message}},
// and fails closed on updatedInput, updatedPermissions or interrupt: "allow-session" is offered
// only to a client that takes session rules (ClientAdapter.takesSessionRules).
import type { Answer } from "./answer.js";
import { inertText } from "../shown-text.js";
import type { SessionGrant } from "./session-grant.js";

/** Told to the agent when the person pressed Deny on the phone. */
export const DENY_MESSAGE =
  "The user denied this permission request from their phone (hook-notify). Do not retry it; ask the user how to proceed.";

/** The most characters of a typed reason passed on (a Telegram message holds 4,096). */
export const MAX_REASON = 500;

// {"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}
export function decisionJson(answer: Answer, grant?: SessionGrant): string {
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PermissionRequest",
      decision: decisionBody(answer, grant),
    },
  });
}

function decisionBody(answer: Answer, grant: SessionGrant | undefined): Record<string, unknown> {
  switch (answer.decision) {
    case "allow":
      return { behavior: "allow" };
    case "allow-session":
      // Without a grant there was no such button: a plain allow is all the person saw.
      return grant === undefined
        ? { behavior: "allow" }
        : { behavior: "allow", updatedPermissions: grant.updates };
    case "deny":
      return { behavior: "deny", message: denyMessage(answer.reason) };
    case "option-1":
    case "option-2":
    case "option-3":
    case "option-4":
      // A question's option answers a question (question.ts), never a permission request.
      throw new Error(`approve: ${answer.decision} does not answer a permission request`);
  }
}

// The model reads the person's own words when they gave some.
export function denyMessage(reason: string | undefined): string {
  if (reason === undefined) return DENY_MESSAGE;
  return `The user denied this permission request from their phone (hook-notify) and said: ${reason}`;
}

// A typed reason made inert for the model and the log: escape sequences and control, bidi and
// invisible characters removed, every line break a space, at most MAX_REASON characters;
// undefined when nothing is left.
export function inertReason(text: string): string | undefined {
  const flat = inertText(text, "notification").replace(/\s+/g, " ").trim();
  if (flat === "") return undefined;
  const points = Array.from(flat);
  return points.length <= MAX_REASON ? flat : `${points.slice(0, MAX_REASON - 1).join("")}…`;
}
