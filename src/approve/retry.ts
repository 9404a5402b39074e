// "Let it retry" for Claude Code's `PermissionDenied` (its auto mode blocked an action). 2.1.332
// sends {tool_name, tool_input, tool_use_id, reason} and awaits the hook before the turn goes on
// (`for await` over executePermissionDeniedHooks, under the entry's timeout); an output of
// `hookSpecificOutput {hookEventName "PermissionDenied", retry: true}` adds a note for the model,
// "The PermissionDenied hook indicated you may retry this tool call." (not when the check gave no
// verdict or the denial ends the turn). It is a permission to try again, not a run: the retried
// call meets auto mode's check again. One button; no answer (or any other) is no retry.
import { inertText } from "../shown-text.js";
import type { Question } from "./question.js";

/** The one button. */
export const RETRY_LABEL = "Let it retry";

const MAX_REASON = 300;

// The question the phone shows for a blocked action: why it was blocked, and the one button.
export function retryQuestion(reason: unknown, tool: string): Question {
  const why =
    typeof reason === "string" && reason !== ""
      ? Array.from(reason).slice(0, MAX_REASON).join("")
      : "no reason given";
  return {
    text: `Auto mode blocked it: ${why}. Press "${RETRY_LABEL}" to tell the agent it may try again (auto mode checks it again).`,
    labels: [RETRY_LABEL],
    descriptions: [""],
    title: `auto mode blocked ${inertText(tool, "line")}`,
    showsRequest: true,
  };
}

// {"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}
export function retryJson(): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionDenied", retry: true } });
}
