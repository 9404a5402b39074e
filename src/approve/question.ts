// Claude Code's AskUserQuestion, answered from the phone. The question reaches a hook as the
// PreToolUse input of the AskUserQuestion tool; 2.1.332 takes the answer as that hook's
// `updatedInput` with the tool's own `answers` field ({"<question>": "<label>"}, sdk-tools.d.ts
// AskUserQuestionInput), and then shows no dialog (the permission code exempts AskUserQuestion
// from "requires user interaction" when a hook returned updatedInput; docs/approve.md has the
// evidence and the real run). Kept simple: one question, single choice, 2 to 4 options; anything
// else is left to the terminal, which asks as before.
import { HookNotifyError } from "../errors.js";
import { inertText } from "../shown-text.js";

/** The tool whose PreToolUse input is a question. */
export const QUESTION_TOOL = "AskUserQuestion";

/** One question the phone can answer: its text and the option labels, as the agent sent them. */
export interface Question {
  /** The question's text exactly as sent: the key of `answers`. */
  text: string;
  /** The option labels exactly as sent (2-4): the answer is one of them. */
  labels: string[];
  /** Each option's description, "" when none. */
  descriptions: string[];
  /** What the title says after the agent's name ("Claude Code: the MCP server db asks you"),
   * already inert; by default "Claude Code asks you a question". */
  title?: string | undefined;
  /** The phone shows the tool input too (a blocked action's "Let it retry"). */
  showsRequest?: boolean | undefined;
}

/** The most options a question has (Claude Code's schema: 2 to 4). */
export const MAX_OPTIONS = 4;
const MAX_TEXT = 1000;

// The one question of an AskUserQuestion input, or a HookNotifyError saying why the terminal asks.
export function readQuestion(toolInput: unknown): Question {
  const input = isObject(toolInput) ? toolInput : {};
  const questions = Array.isArray(input.questions) ? input.questions : [];
  if (questions.length !== 1) {
    throw leave(
      `the agent asks ${questions.length} questions at once; the phone answers a single question only`,
    );
  }
  const [raw] = questions as unknown[];
  const one = isObject(raw) ? raw : {};
  if (one.multiSelect === true) throw leave("a question with several answers (multiSelect)");
  const options = Array.isArray(one.options) ? (one.options as unknown[]) : [];
  const labels = options.map((option) => (isObject(option) ? option.label : undefined));
  const text = one.question;
  if (
    typeof text !== "string" ||
    text === "" ||
    text.length > MAX_TEXT ||
    options.length < 2 ||
    options.length > MAX_OPTIONS ||
    !labels.every((label) => typeof label === "string" && label !== "" && label.length <= 200) ||
    new Set(labels).size !== labels.length
  ) {
    throw leave("a question this version cannot show (its text or options are not as expected)");
  }
  const descriptions = options.map((option) =>
    isObject(option) && typeof option.description === "string" ? option.description : "",
  );
  return { text, labels: labels as string[], descriptions };
}

function leave(why: string): HookNotifyError {
  return new HookNotifyError("INPUT_INVALID", `AskUserQuestion: ${why}; the terminal asks.`);
}

// The question's lines on the phone, made inert: the question, then each option numbered.
export function questionLines(question: Question): string[] {
  return [
    inertText(question.text, "line"),
    ...question.labels.map((label, index) => {
      const description = question.descriptions[index] ?? "";
      const shown = inertText(label, "line");
      return description === ""
        ? `${index + 1}. ${shown}`
        : `${index + 1}. ${shown}: ${inertText(description, "line")}`;
    }),
  ];
}

// The PreToolUse output that answers the question with `label`: the original input, whole, plus
// `answers`; permissionDecision "allow" lets the tool run with it (alone it would still ask).
export function questionAnswerJson(toolInput: unknown, question: Question, label: string): string {
  const input = isObject(toolInput) ? toolInput : {};
  const before = isObject(input.answers) ? input.answers : {};
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "allow",
      updatedInput: { ...input, answers: { ...before, [question.text]: label } },
    },
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
