// Reads a PermissionRequest input: Claude Code's (hooks reference: tool_name, tool_input, optional
// permission_suggestions; no tool_use_id) or Codex's, which has the same fields under the same
// names (permission-request.command.input in 0.169.0 adds turn_id, model, permission_mode).
// Claude Code's Elicitation (an MCP server's form, elicitation.ts) and PermissionDenied (auto mode
// blocked an action: "Let it retry", retry.ts) are read here too. Anything else means: let the
// terminal ask.
import { basename } from "node:path";
import type { Deps } from "../deps.js";
import { HookNotifyError } from "../errors.js";
import { readInput } from "../pipeline/read-input.js";
import { readElicitation, type ElicitationForm } from "./elicitation.js";
import { QUESTION_TOOL, readQuestion, type Question } from "./question.js";
import { retryQuestion } from "./retry.js";

/** The hook events approve answers. */
export type AnsweredEvent = "PermissionRequest" | "PreToolUse" | "Elicitation" | "PermissionDenied";

/** The parts of a PermissionRequest approve uses. */
export interface PermissionInput {
  /** Default PermissionRequest. */
  event?: AnsweredEvent | undefined;
  toolName: unknown;
  toolInput: unknown;
  project?: string | undefined;
  session?: string | undefined;
  /** permission_suggestions as sent (Claude Code): what "Allow for this session" may grant. */
  suggestions?: unknown;
  /** Claude Code's PreToolUse of AskUserQuestion: the question the phone answers instead. */
  question?: Question | undefined;
  /** An Elicitation: the field its one choice fills. */
  form?: ElicitationForm | undefined;
}

// A Write of a large file arrives whole in tool_input; past this the terminal asks instead.
const MAX_INPUT_BYTES = 4 * 1024 * 1024;

// stdin → the request, or a HookNotifyError (INPUT_*) when it is not one.
export async function readPermissionRequest(deps: Pick<Deps, "stdin">): Promise<PermissionInput> {
  const text = await readInput(deps.stdin, {
    maxBytes: MAX_INPUT_BYTES,
    idleMs: 2_000,
    totalMs: 5_000,
  });
  return parsePermissionRequest(text);
}

// Pure: the JSON text of one hook input → the request.
export function parsePermissionRequest(text: string): PermissionInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HookNotifyError("INPUT_INVALID", "stdin: not valid JSON.", { cause: error });
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new HookNotifyError("INPUT_INVALID", "stdin: expected one JSON object.");
  }
  const raw = value as Record<string, unknown>;
  const cwd = typeof raw.cwd === "string" && raw.cwd !== "" ? raw.cwd : undefined;
  const where = {
    project: cwd === undefined ? undefined : basename(cwd),
    session: typeof raw.session_id === "string" ? raw.session_id : undefined,
  };
  if (raw.hook_event_name === "Elicitation") {
    const asked = readElicitation(raw);
    const toolName = `MCP server ${asked.server}`;
    const toolInput = { message: raw.message };
    return {
      event: "Elicitation",
      toolName,
      toolInput,
      ...where,
      question: asked.question,
      form: asked.form,
    };
  }
  if (raw.hook_event_name === "PermissionDenied") {
    const tool =
      typeof raw.tool_name === "string" && raw.tool_name !== "" ? raw.tool_name : "a tool";
    const question = retryQuestion(raw.reason, tool);
    return {
      event: "PermissionDenied",
      toolName: raw.tool_name,
      toolInput: raw.tool_input,
      ...where,
      question,
    };
  }
  const isQuestion = raw.hook_event_name === "PreToolUse" && raw.tool_name === QUESTION_TOOL;
  if (raw.hook_event_name !== "PermissionRequest" && !isQuestion) {
    throw new HookNotifyError(
      "INPUT_INVALID",
      `hook-notify approve answers PermissionRequest, the PreToolUse of ${QUESTION_TOOL}, Elicitation and PermissionDenied only, not ${JSON.stringify(raw.hook_event_name)} of ${JSON.stringify(raw.tool_name)}.`,
    );
  }
  return {
    toolName: raw.tool_name,
    toolInput: raw.tool_input,
    ...where,
    ...(isQuestion ? { event: "PreToolUse", question: readQuestion(raw.tool_input) } : {}),
    ...(raw.permission_suggestions === undefined
      ? {}
      : { suggestions: raw.permission_suggestions }),
  };
}
