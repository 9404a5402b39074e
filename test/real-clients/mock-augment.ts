// Augment's API as Auggie calls it, on loopback: Auggie logs in with AUGMENT_SESSION_AUTH, whose
// tenantURL points here. Only what one print-mode turn needs; hooks are on (enable_hooks).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";
import { ANSWER, type Behaviour, type MockModel } from "./mock-model.js";

// get-models (with the feature flag that turns hooks on), no remote tools, and chat-stream: one
// JSON line of text, then one that ends the turn; "error" refuses the chat with a 400.
export async function startMockAugment(behaviour: Behaviour = "text"): Promise<MockModel> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const url = req.url ?? "";
      requests.push(`${req.method ?? ""} ${url}`);
      const json = (body: object, status = 200): void => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (url.startsWith("/get-models")) {
        const model = {
          name: "mock",
          suggested_prefix_char_count: 0,
          suggested_suffix_char_count: 0,
        };
        json({ default_model: "mock", models: [model], languages: [], feature_flags: FLAGS });
        return;
      }
      if (url.startsWith("/agents/list-remote-tools")) {
        json({ tools: [] });
        return;
      }
      if (url.startsWith("/chat-stream")) {
        if (behaviour === "error") {
          json({ error: "mock: this request is refused" }, 400);
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          `${JSON.stringify({ text: ANSWER })}\n${JSON.stringify({ text: "", stop_reason: 1 })}\n`,
        );
        return;
      }
      json({});
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

// Auggie runs no hook unless its backend says so.
const FLAGS = { enable_hooks: true };
