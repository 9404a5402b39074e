// The output for a chosen option, in the form the event's client takes: an AskUserQuestion's
// `updatedInput.answers` (question.ts), an MCP form's accepted content (elicitation.ts), or a
// blocked action's retry (retry.ts).
import { elicitationAnswerJson } from "./elicitation.js";
import { questionAnswerJson, type Question } from "./question.js";
import type { PermissionInput } from "./read-request.js";
import { retryJson } from "./retry.js";

// `index` is the option pressed (0-based), one the phone offered, or a form's typed text;
// anything else answers nothing.
export function chosenJson(
  request: PermissionInput,
  question: Question,
  index: number | string | undefined,
): string {
  if (typeof index === "string") {
    if (request.form?.text === undefined) throw new Error("approve: no text field to fill");
    return elicitationAnswerJson(request.form, index);
  }
  const label = index === undefined ? undefined : question.labels[index];
  if (index === undefined || label === undefined) {
    throw new Error("approve: a question is answered by one of its own options only");
  }
  if (request.event === "Elicitation" && request.form !== undefined) {
    return elicitationAnswerJson(request.form, index);
  }
  if (request.event === "PermissionDenied") return retryJson();
  return questionAnswerJson(request.toolInput, question, label);
}
