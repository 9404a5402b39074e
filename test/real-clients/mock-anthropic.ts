import type { IncomingMessage, ServerResponse } from "node:http";

const REFUSAL = {
  type: "error",
  error: { type: "permission_error", message: "mock: this request is refused" },
};
import { ANSWER, DENIED_COMMAND, PERMISSION_COMMAND, type Behaviour } from "./mock-model.js";

interface MessagesRequest {
  model?: string;
  stream?: boolean;
  tools?: unknown[];
  messages?: unknown[];
}

// Anthropic Messages (POST /v1/messages, Claude Code and Droid's BYOK "anthropic" provider):
// a streamed text answer, or with "permission" and "denied" a Bash tool call first (until a tool
// result comes back); "error" is refused with a 403. Returns false for requests that are not
// Messages calls.
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
  const hasResult = JSON.stringify(parsed.messages ?? []).includes('"tool_result"');
  // Auto mode's check is a request without tools: it gets the text answer, which is no verdict.
  const wants = behaviour === "permission" || behaviour === "denied";
  const asks = wants && (parsed.tools ?? []).length > 0 && !hasResult;
  const command = behaviour === "denied" ? DENIED_COMMAND : PERMISSION_COMMAND;
  const block = asks
    ? { type: "tool_use", id: "toolu_1", name: "Bash", input: { command } }
    : { type: "text", text: ANSWER };
  const stop = asks ? "tool_use" : "end_turn";
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
    return true;
  }
  const event = (type: string, data: object): string =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const start = asks ? { ...block, input: {} } : { type: "text", text: "" };
  const delta = asks
    ? { type: "input_json_delta", partial_json: JSON.stringify({ command }) }
    : { type: "text_delta", text: ANSWER };
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.end(
    event("message_start", { message: { ...message, content: [], stop_reason: null } }) +
      event("content_block_start", { index: 0, content_block: start }) +
      event("content_block_delta", { index: 0, delta }) +
      event("content_block_stop", { index: 0 }) +
      event("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: {} }) +
      event("message_stop", {}),
  );
  return true;
}
