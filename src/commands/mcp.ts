// `hook-notify mcp`: a stdio MCP server whose `notify` tool lets the agent ask for the person
// itself (mcp-run.ts). A client starts it (install --mcp registers it); a person rarely types it.
import type { CommandModule } from "yargs";
import { configOption } from "./config-option.js";

interface McpArgs {
  config?: string | undefined;
}

export const mcpCommand: CommandModule<object, McpArgs> = {
  command: "mcp",
  describe: "Serve the notify tool over MCP (stdio) for agents to call; install --mcp registers it",
  builder: (yargs) =>
    yargs
      .option("config", configOption)
      .example("$0 install --mcp", "register it with every client that takes MCP servers")
      .example("$0 mcp", "what a client starts (it speaks MCP on stdin and stdout)")
      .epilog(
        "The agent's notify calls go through the same routing, noise rules and log as hook events " +
          "(event AgentNotify). See docs/mcp.md.",
      ),
  handler: async (argv) => {
    // dist/mcp.cjs in the package (the SDK is bundled there only), the source in tests.
    const { runMcpServer } = await import("./mcp-run.js");
    await runMcpServer({ configPath: argv.config });
  },
};
