import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

/** A loopback stand-in for the model APIs the clients call; answers one short text turn. */
export interface MockModel {
  url: string;
  /** Method and path of every request, in order. */
  requests: string[];
}

export const ANSWER = "All done: the mock model answered.";
const USAGE_OPENAI = { input_tokens: 5, output_tokens: 7, total_tokens: 12 };
const USAGE_GEMINI = { promptTokenCount: 5, candidatesTokenCount: 7, totalTokenCount: 12 };

// node:http on 127.0.0.1:0; only the endpoints Codex (Responses), Gemini CLI and Copilot CLI
// (Chat Completions) call.
export async function startMockModel(): Promise<MockModel> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests.push(`${req.method ?? ""} ${req.url ?? ""}`);
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${String(port)}`, requests };
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
