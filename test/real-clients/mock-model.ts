import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";
import { answerAnthropic } from "./mock-anthropic.js";

/** A loopback stand-in for the model APIs the clients call; answers one short text turn. */
export interface MockModel {
  url: string;
  /** Method and path of every request, in order. */
  requests: string[];
  /** The body of every request, in the same order (what the model was told); the mocks that
   * script a permission answer keep them. */
  bodies?: string[];
}

/** What the model does: answer with text; answer and ask to run a command that needs permission
 * (PERMISSION_COMMAND), or the same command twice (SESSION_COMMAND, "session"); ask to run one a permission check blocks (DENIED_COMMAND, Anthropic only);
 * call hook-notify's notify tool over MCP first (NOTIFY_TOOL, Anthropic only);
 * ask the person a three-option question first (QUESTION_INPUT, Anthropic only);
 * call an MCP tool whose server asks the person to fill a form first (FORM_TOOL, or FORM_TEXT_TOOL
 * for "form-text", Anthropic only);
 * start a subagent in the background for BACKGROUND_PROMPT, which answers later (Anthropic only);
 * refuse every request (a failed turn); or (Chat Completions) answer 200 with an error as the
 * stream's only event, which clients do not retry. */
export type Behaviour =
  | "text"
  | "permission"
  | "session"
  | "denied"
  | "blocked"
  | "background"
  | "notify"
  | "question"
  | "form"
  | "form-text"
  | "error"
  | "stream-error";

/** The "question" model asks the person this with AskUserQuestion first (Anthropic only). */
export const QUESTION = "Which database should we use?";
export const QUESTION_INPUT = {
  questions: [
    {
      question: QUESTION,
      header: "Database",
      options: [
        { label: "SQLite", description: "A file, no server" },
        { label: "PostgreSQL", description: "The team's usual" },
        { label: "MySQL", description: "The old one" },
      ],
      multiSelect: false,
    },
  ],
};

/** The "form" model calls this MCP tool (`deploy` of test/fixtures/mcp/forms-server.mjs, as
 * Claude Code names it). */
export const FORM_TOOL = "mcp__forms__deploy";
/** The "form-text" model calls this one (`note`: a form of one text field). */
export const FORM_TEXT_TOOL = "mcp__forms__note";

/** The "notify" model calls hook-notify's MCP tool (as Claude Code names it) with these. */
export const NOTIFY_TOOL = "mcp__hook-notify__notify";
export const NOTIFY_INPUT = {
  title: "Deploy is green",
  message: "v2.4 is live on staging.",
  level: "info",
};

/** The command the "permission" model asks to run; the client must ask before running it. */
export const PERMISSION_COMMAND = "touch hn-probe.txt";

/** The command the "session" model asks to run twice, one call after the other (Anthropic only):
 * allowed for the session the first time, the second must run without asking again. The script
 * (SESSION_SCRIPT, written into the project by the runner) appends a line to hn-probe.txt: a
 * redirect in the command itself would make Claude Code offer a folder, not a rule for it. */
export const SESSION_COMMAND = "sh hn-probe.sh";
export const SESSION_SCRIPT = "echo ran >> hn-probe.txt\n";

/** The "blocked" model asks for DENIED_COMMAND too, and answers auto mode's check itself with a
 * grade above its block line (a verdict, unlike "denied"'s no verdict: Claude Code 2.1.332 tells
 * the model of a PermissionDenied retry only after a verdict). */
export const BLOCK_VERDICT = "<severity>95</severity>";

/** The command the "denied" model asks to run: a force push, which Claude Code's auto mode sends
 * to its check (the mock's answer to the check is no verdict, so the action is blocked). */
export const DENIED_COMMAND = "git push --force origin main; touch hn-probe.txt";

/** The prompt the "background" model answers with a background subagent, and that subagent's. */
export const BACKGROUND_PROMPT = "start the background probe";
export const SUBAGENT_PROMPT = "probe quietly in the background";

export const ANSWER = "All done: the mock model answered.";
const USAGE_OPENAI = { input_tokens: 5, output_tokens: 7, total_tokens: 12 };
const USAGE_GEMINI = { promptTokenCount: 5, candidatesTokenCount: 7, totalTokenCount: 12 };

// node:http on 127.0.0.1:0; only the endpoints the clients call: Claude Code and Droid (Anthropic
// Messages), Codex (Responses), Gemini CLI, Copilot CLI and OpenCode (Chat Completions).
export async function startMockModel(behaviour: Behaviour = "text"): Promise<MockModel> {
  const requests: string[] = [];
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      requests.push(`${req.method ?? ""} ${req.url ?? ""}`);
      bodies.push(body);
      if (answerAnthropic(req, body, res, behaviour)) return;
      if (behaviour === "error" && req.method === "POST") {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify(REFUSAL));
        return;
      }
      if (behaviour === "stream-error" && streamError(req, body, res)) return;
      if (behaviour === "permission" && askPermission(req, body, res)) return;
      if (behaviour === "permission" && askGeminiPermission(req, body, res)) return;
      if (behaviour === "permission" && askCodexPermission(req, body, res)) return;
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${String(port)}`, requests, bodies };
}

const REFUSAL = {
  type: "error",
  error: { type: "invalid_request_error", message: "mock: this request is refused" },
};

// Chat Completions: the turn's request (the one that offers tools) gets 200 and an error as its
// only event; OpenCode retries a refused request six times with backoff (~100 s), not this.
function streamError(req: IncomingMessage, body: string, res: ServerResponse): boolean {
  if (req.method !== "POST" || !(req.url ?? "").startsWith("/v1/chat/completions")) return false;
  const parsed = JSON.parse(body || "{}") as { tools?: unknown[] };
  if ((parsed.tools ?? []).length === 0) return false;
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.end(`data: ${JSON.stringify({ error: REFUSAL.error })}\n\n`);
  return true;
}

// Chat Completions: the text answer and a shell tool call in one message, for the request that
// offers tools and has no tool result yet (OpenCode asks, `opencode run` rejects, the turn ends).
// The call names the shell tool the client offers: bash (OpenCode, Kilo), run_shell_command (Qwen).
const SHELL_TOOLS = ["bash", "run_shell_command"];

function askPermission(req: IncomingMessage, body: string, res: ServerResponse): boolean {
  if (req.method !== "POST" || !(req.url ?? "").startsWith("/v1/chat/completions")) return false;
  const parsed = JSON.parse(body || "{}") as {
    tools?: { function?: { name?: string } }[];
    messages?: { role: string }[];
  };
  const hasTool = (parsed.tools ?? []).length > 0;
  if (!hasTool || (parsed.messages ?? []).some((m) => m.role === "tool")) return false;
  const offered = (parsed.tools ?? []).map((tool) => tool.function?.name);
  const shell = SHELL_TOOLS.find((name) => offered.includes(name)) ?? "bash";
  const base = { id: "chatcmpl-2", object: "chat.completion.chunk", created: 1, model: "mock" };
  const chunk = (delta: object, finish: string | null): string =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const args = JSON.stringify({ command: PERMISSION_COMMAND, description: "Create a file" });
  const call = {
    index: 0,
    id: "call_1",
    type: "function",
    function: { name: shell, arguments: args },
  };
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.end(
    chunk({ role: "assistant", content: ANSWER }, null) +
      chunk({ tool_calls: [call] }, null) +
      chunk({}, "tool_calls") +
      "data: [DONE]\n\n",
  );
  return true;
}

// OpenAI Responses (Codex): an exec_command call that asks for escalated permissions, for the
// request that offers it, until its output comes back (the TUI asks "run the following command?").
function askCodexPermission(req: IncomingMessage, body: string, res: ServerResponse): boolean {
  if (req.method !== "POST" || !(req.url ?? "").startsWith("/v1/responses")) return false;
  const parsed = JSON.parse(body || "{}") as { tools?: { name?: string }[]; input?: unknown };
  if (!(parsed.tools ?? []).some((tool) => tool.name === "exec_command")) return false;
  if (JSON.stringify(parsed.input ?? []).includes('"function_call_output"')) return false;
  const args = {
    cmd: PERMISSION_COMMAND,
    sandbox_permissions: "require_escalated",
    justification: "Create the probe file",
  };
  const item = {
    type: "function_call",
    id: "fc_1",
    call_id: "call_1",
    name: "exec_command",
    arguments: JSON.stringify(args),
  };
  const event = (type: string, data: object): string =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.end(
    event("response.created", { response: { id: "resp_2" } }) +
      event("response.output_item.done", { item }) +
      event("response.completed", { response: { id: "resp_2", usage: USAGE_OPENAI } }),
  );
  return true;
}

// Gemini: a run_shell_command call for the streamed request that offers tools, until a
// functionResponse comes back (the interactive CLI asks "Allow execution of [Shell]?").
function askGeminiPermission(req: IncomingMessage, body: string, res: ServerResponse): boolean {
  if (req.method !== "POST" || !(req.url ?? "").includes(":streamGenerateContent")) return false;
  const parsed = JSON.parse(body || "{}") as { tools?: unknown[]; contents?: unknown[] };
  if ((parsed.tools ?? []).length === 0) return false;
  if (JSON.stringify(parsed.contents ?? []).includes('"functionResponse"')) return false;
  const call = { name: "run_shell_command", args: { command: PERMISSION_COMMAND } };
  const content = { role: "model", parts: [{ functionCall: call }] };
  const out = {
    candidates: [{ content, finishReason: "STOP", index: 0 }],
    usageMetadata: USAGE_GEMINI,
  };
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.end(`data: ${JSON.stringify(out)}\r\n\r\n`);
  return true;
}

function answer(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? "";
  if (req.method === "POST" && url.startsWith("/v1/responses")) {
    // OpenAI Responses, streamed: one assistant message, then completed.
    const event = (type: string, data: object): string =>
      `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const message = { type: "message", role: "assistant", id: "msg_1" };
    const content = [{ type: "output_text", text: ANSWER }];
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(
      event("response.created", { response: { id: "resp_1" } }) +
        event("response.output_item.done", { item: { ...message, content } }) +
        event("response.completed", { response: { id: "resp_1", usage: USAGE_OPENAI } }),
    );
    return;
  }
  if (req.method === "POST" && url.startsWith("/v1/chat/completions")) {
    // OpenAI Chat Completions, streamed (Copilot CLI's BYOK provider): one message, then [DONE].
    const base = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "mock" };
    const chunk = (delta: object, finish: string | null): string =>
      `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(
      chunk({ role: "assistant", content: ANSWER }, null) + chunk({}, "stop") + "data: [DONE]\n\n",
    );
    return;
  }
  const candidate = { content: { role: "model", parts: [{ text: ANSWER }] }, finishReason: "STOP" };
  const body = { candidates: [{ ...candidate, index: 0 }], usageMetadata: USAGE_GEMINI };
  if (req.method === "POST" && url.includes(":streamGenerateContent")) {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(`data: ${JSON.stringify(body)}\r\n\r\n`);
    return;
  }
  if (req.method === "POST" && url.includes(":generateContent")) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
    return;
  }
  if (req.method === "POST" && url.includes(":countTokens")) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ totalTokens: 5 }));
    return;
  }
  res.writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { code: 404, message: "not mocked", status: "NOT_FOUND" } }));
}
