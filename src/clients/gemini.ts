import { join } from "node:path";
import type { LocateInput, Place, Scope } from "../core/install-target.js";
import { canonicalName, compact, defineClient, projectWrapper, stdioEntry } from "./adapter.js";
import { claudeCode } from "./claude-code.js";

// Gemini CLI 0.61.0: "hooks" in ~/.gemini/settings.json and .gemini/settings.json (project hooks
// only in a trusted folder). It replaces $GEMINI_PROJECT_DIR in a hook command with the project.
function locate(scope: Scope, { home, projectDir }: LocateInput): Place {
  if (scope === "user") {
    return {
      scope,
      file: join(home, ".gemini", "settings.json"),
    };
  }
  const dir = join(projectDir, ".gemini");
  return {
    scope,
    file: join(dir, "settings.json"),
    // Unquoted on purpose: Gemini puts the folder in already shell-quoted (shell-quote).
    wrapper: projectWrapper(dir, "$GEMINI_PROJECT_DIR/.gemini"),
  };
}

const events = {
  Notification: "Notification",
  AfterAgent: "Stop",
  SessionEnd: "SessionEnd",
} as const;

// Gemini's own event names and fields onto hook-notify's: AfterAgent is the end of a turn, and
// its prompt_response is the last message. Its transcript is JSON of its own, not read here.
function toCanonical(raw: Record<string, unknown>): Record<string, unknown> {
  const name = typeof raw["hook_event_name"] === "string" ? raw["hook_event_name"] : "";
  const out: Record<string, unknown> = { ...raw, hook_event_name: canonicalName({ events }, name) };
  delete out["transcript_path"];
  if (name === "AfterAgent") out["last_assistant_message"] = raw["prompt_response"];
  if (name === "Notification" && raw["notification_type"] === "ToolPermission") {
    out["notification_type"] = "permission_prompt";
  }
  // "other" is Gemini's catch-all reason, not an error as in Claude Code.
  if (name === "SessionEnd" && raw["reason"] === "other") delete out["reason"];
  return compact(out);
}

// Google's Gemini CLI: Claude-like hook entries under its own event names; timeouts in ms.
export const gemini = defineClient({
  id: "gemini",
  name: "Gemini CLI",
  agent: "Gemini",
  verified: "0.61.0",
  program: { command: "gemini", package: "@google/gemini-cli" },
  scopes: ["user", "project"],
  configDir: ({ home }) => join(home, ".gemini"),
  shape: "settings",
  locate,
  events,
  timeoutUnit: "milliseconds",
  acceptsJsonc: true,
  jsoncReason: "",
  imports: [claudeCode.id],
  projectNeedsTrust: true,
  // settings.json's mcpServers: command, args.
  mcp: {
    file: ({ home }) => join(home, ".gemini", "settings.json"),
    format: "json",
    servers: ["mcpServers"],
    entry: stdioEntry(),
  },
  recognises: {
    // AfterAgent is Gemini's own name for the end of a turn.
    payload: (raw) => raw["hook_event_name"] === "AfterAgent",
    transcriptDirs: ["/.gemini/"],
    env: ["GEMINI_SESSION_ID"],
  },
  env: [],
  output:
    "stdout is parsed as hook JSON (AfterAgent can ask for another turn) and exit 2 blocks; it also sets CLAUDE_PROJECT_DIR for hooks",
  toCanonical,
});
