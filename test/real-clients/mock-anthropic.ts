import type { IncomingMessage, ServerResponse } from "node:http";
import {
  ANSWER,
  BACKGROUND_PROMPT,
  BLOCK_VERDICT,
  DENIED_COMMAND,
  FORM_TEXT_TOOL,
  FORM_TOOL,
  NOTIFY_INPUT,
  NOTIFY_TOOL,
  PERMISSION_COMMAND,
  QUESTION_INPUT,
  SESSION_COMMAND,
  SUBAGENT_PROMPT,
  type Behaviour,
} from "./mock-model.js";

interface MessagesRequest {
  model?: string;
  stream?: boolean;
  tools?: { name?: string }[];
  messages?: unknown[];
}

interface ToolUse {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
}

const REFUSAL = {
  type: "error",
  error: { type: "permission_error", message: "mock: this request is refused" },
};

/** How long the "background" subagent's one request takes: its session's first turn ends before. */
const SUBAGENT_MS = 8000;

// Anthropic Messages (POST /v1/messages, Claude Code and Droid's BYOK "anthropic" provider):
// a streamed text answer, or a tool call first (until a tool result comes back): with
// "permission" and "denied" a Bash call, with "session" the same Bash call twice, with "question" an
// AskUserQuestion call, with "form" a call of an MCP tool that asks for a form, with "background" a background subagent whose own request
// is answered SUBAGENT_MS later; "error" is refused with a 403. Returns false for requests that
// are not Messages calls.
export function answerAnthropic(
  req: IncomingMessage,
  body: string,
  res: ServerResponse,
  behaviour: Behaviour,
): boolean {
  const url = req.url ?? "";
  if (req.method !== "POST" || !url.startsWith("/v1/messages")) return false;
  if (url.startsWith("/v1/messages/count_tokens")) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ input_tokens: 5 }));
    return true;
  }
  if (behaviour === "error") {
    // A refusal both the pinned and the newest Claude Code end the turn on (StopFailure); the
    // newest retries a 400 with fewer tools and fires none.
    res.writeHead(403, { "content-type": "application/json" });
    res.end(JSON.stringify(REFUSAL));
    return true;
  }
  const parsed = JSON.parse(body || "{}") as MessagesRequest;
  const first = JSON.stringify(parsed.messages?.[0] ?? "");
  const isSubagent = behaviour === "background" && first.includes(SUBAGENT_PROMPT);
  // Auto mode's check asks for a grade (<severity>N</severity>): "blocked" gives one.
  const isCheck = behaviour === "blocked" && body.includes("<severity>N</severity>");
  const reply = () => {
    if (isCheck) sendMessage(res, parsed, undefined, BLOCK_VERDICT);
    else sendMessage(res, parsed, toolCall(parsed, behaviour, first));
  };
  if (isSubagent) setTimeout(reply, SUBAGENT_MS);
  else reply();
  return true;
}

// The tool call this request gets, if any. Auto mode's check is a request without tools: it gets
// the text answer, which is no verdict.
function toolCall(parsed: MessagesRequest, behaviour: Behaviour, first: string) {
  const tools = (parsed.tools ?? []).map((tool) => tool.name);
  const results = JSON.stringify(parsed.messages ?? []).split('"tool_result"').length - 1;
  if (tools.length === 0) return undefined;
  if (behaviour === "session" && results < 2) {
    const input = { command: SESSION_COMMAND };
    return { type: "tool_use", id: `toolu_s${results}`, name: "Bash", input } as ToolUse;
  }
  if (results > 0) return undefined;
  if (behaviour === "permission" || behaviour === "denied" || behaviour === "blocked") {
    const command = behaviour === "permission" ? PERMISSION_COMMAND : DENIED_COMMAND;
    return { type: "tool_use", id: "toolu_1", name: "Bash", input: { command } } as ToolUse;
  }
  if (behaviour === "question" && tools.includes("AskUserQuestion")) {
    return {
      type: "tool_use",
      id: "toolu_q",
      name: "AskUserQuestion",
      input: QUESTION_INPUT,
    } as ToolUse;
  }
  if (behaviour === "form" && tools.includes(FORM_TOOL))
    return { type: "tool_use", id: "toolu_f", name: FORM_TOOL, input: {} } as ToolUse;
  if (behaviour === "form-text" && tools.includes(FORM_TEXT_TOOL))
    return { type: "tool_use", id: "toolu_t", name: FORM_TEXT_TOOL, input: {} } as ToolUse;
  if (behaviour === "notify" && tools.includes(NOTIFY_TOOL))
    return { type: "tool_use", id: "toolu_3", name: NOTIFY_TOOL, input: NOTIFY_INPUT } as ToolUse;
  if (behaviour === "background" && tools.includes("Agent") && first.includes(BACKGROUND_PROMPT)) {
    const input = {
      description: "probe",
      prompt: SUBAGENT_PROMPT,
      subagent_type: "general-purpose",
      run_in_background: true,
    };
    return { type: "tool_use", id: "toolu_2", name: "Agent", input } as ToolUse;
  }
  return undefined;
}

function sendMessage(
  res: ServerResponse,
  parsed: MessagesRequest,
  call: ToolUse | undefined,
  text = ANSWER,
) {
  if (res.destroyed) return;
  const block = call ?? { type: "text", text };
  const stop = call ? "tool_use" : "end_turn";
  const message = {
    id: "msg_mock",
    type: "message",
    role: "assistant",
    model: parsed.model ?? "mock",
    stop_sequence: null,
    usage: { input_tokens: 5, output_tokens: 7 },
  };
  if (parsed.stream !== true) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ...message, content: [block], stop_reason: stop }));
    return;
  }
  const event = (type: string, data: object): string =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const start = call ? { ...call, input: {} } : { type: "text", text: "" };
  const delta = call
    ? { type: "input_json_delta", partial_json: JSON.stringify(call.input) }
    : { type: "text_delta", text };
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.end(
    event("message_start", { message: { ...message, content: [], stop_reason: null } }) +
      event("content_block_start", { index: 0, content_block: start }) +
      event("content_block_delta", { index: 0, delta }) +
      event("content_block_stop", { index: 0 }) +
      event("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: {} }) +
      event("message_stop", {}),
  );
}
