// A tiny MCP server (stdio) for the real-client forms test: its one tool, `deploy`, asks the
// person where to deploy (an MCP elicitation: one field, three titled choices), appends the
// result it got to the file named by its first argument, and returns it to the model.
import { appendFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

export const FORM_MESSAGE = "Where should this deploy go?";

const out = process.argv[2];
const server = new McpServer({ name: "forms", version: "1.0.0" });
server.registerTool(
  "deploy",
  { description: "Deploy, after asking the person where" },
  async () => {
    const result = await server.server.elicitInput({
      message: FORM_MESSAGE,
      requestedSchema: {
        type: "object",
        properties: {
          target: {
            type: "string",
            title: "Target",
            oneOf: [
              { const: "staging", title: "Staging" },
              { const: "production", title: "Production" },
              { const: "canary", title: "Canary" },
            ],
          },
        },
        required: ["target"],
      },
    });
    if (out) appendFileSync(out, `${JSON.stringify(result)}\n`);
    return { content: [{ type: "text", text: `elicitation result: ${JSON.stringify(result)}` }] };
  },
);
await server.connect(new StdioServerTransport());
