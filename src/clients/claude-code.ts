import { join } from "node:path";
import type { LocateInput, Place, Scope } from "../core/install-target.js";
import { defineClient, projectWrapper, stdioEntry } from "./adapter.js";

// Claude Code: ~/.claude/settings.json (or $CLAUDE_CONFIG_DIR), .claude/settings(.local).json.
function locate(scope: Scope, { home, projectDir, env }: LocateInput): Place {
  if (scope === "user") {
    const dir = env["CLAUDE_CONFIG_DIR"] ?? join(home, ".claude");
    return { scope, file: join(dir, "settings.json") };
  }
  const dir = join(projectDir, ".claude");
  const name = scope === "project" ? "settings.json" : "settings.local.json";
  const target: Place = { scope, file: join(dir, name) };
  if (scope === "project") target.wrapper = projectWrapper(dir, '"$CLAUDE_PROJECT_DIR"/.claude');
  return target;
}

// The hook names Claude Code shares with the clients that copied its hooks (Droid).
export const claudeHookEvents = {
  Notification: "Notification",
  Stop: "Stop",
  SubagentStop: "SubagentStop",
  SessionEnd: "SessionEnd",
} as const;

// The reference client: its hook names and payload fields are hook-notify's own.
export const claudeCode = defineClient({
  id: "claude-code",
  name: "Claude Code",
  agent: "Claude",
  verified: "2.1.332",
  program: { command: "claude", package: "@anthropic-ai/claude-code" },
  scopes: ["user", "project", "local"],
  configDir: ({ home, env }) => env["CLAUDE_CONFIG_DIR"] ?? join(home, ".claude"),
  shape: "settings",
  locate,
  events: {
    ...claudeHookEvents,
    StopFailure: "StopFailure",
    PermissionRequest: "PermissionRequest",
    PermissionDenied: "PermissionDenied",
  },
  timeoutUnit: "seconds",
  acceptsJsonc: false,
  jsoncReason: "Claude Code rejects comments, trailing commas and a byte-order mark",
  imports: [],
  answersPermissions: true,
  takesSessionRules: true,
  questionTool: "AskUserQuestion",
  answersForms: true,
  answersRetry: true,
  windowsCommand: "exec",
  // `claude mcp add --scope user`: ~/.claude.json (in $CLAUDE_CONFIG_DIR when set), mcpServers.
  mcp: {
    file: ({ home, env }) => join(env["CLAUDE_CONFIG_DIR"] ?? home, ".claude.json"),
    format: "json",
    servers: ["mcpServers"],
    entry: stdioEntry({ type: "stdio" }),
  },
  recognises: { transcriptDirs: ["/.claude/"], env: ["CLAUDE_PROJECT_DIR", "CLAUDECODE"] },
  env: ["CLAUDE_CONFIG_DIR"],
  output:
    "JSON on stdout or exit 2 from Stop and SubagentStop keeps the agent working; SessionEnd gets about 1.5 s unless the entry sets a timeout",
  toCanonical: (raw) => raw,
});
