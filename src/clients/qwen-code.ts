import { join } from "node:path";
import type { LocateInput, Place, Scope } from "../core/install-target.js";
import { CLAUDE_FORK_EVENTS, claudeForkToCanonical, transcriptIn } from "./claude-fork.js";
import { defineClient, projectWrapper, stdioEntry } from "./adapter.js";
import { claudeCode } from "./claude-code.js";

// Verified against Qwen Code 0.24.4 (@qwen-code/qwen-code), its bundle read and run for real:
// - hooks: "hooks" in $QWEN_HOME/settings.json (else ~/.qwen/settings.json) and .qwen/settings.json
//   (project hooks only in a trusted folder); comments are stripped (strip-json-comments).
// - Claude Code's event names and entry shape; a command's timeout is in seconds (a value large
//   enough to be milliseconds is read as such, with a warning).
// - payload: session_id, transcript_path (its own JSONL chat record, not Claude's), cwd,
//   hook_event_name, timestamp, permission_mode; Notification adds message, notification_type
//   (permission_prompt, idle_prompt, auth_success), title; Stop adds last_assistant_message;
//   StopFailure adds error, error_details, last_assistant_message; SessionEnd adds reason.
// - the hook's environment has QWEN_PROJECT_DIR, CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR (all
//   the project folder), so the installed entries name the client with --client.
function locate(scope: Scope, input: LocateInput): Place {
  if (scope === "user") return { scope, file: join(qwenHome(input), "settings.json") };
  const dir = join(input.projectDir, ".qwen");
  return {
    scope,
    file: join(dir, "settings.json"),
    wrapper: projectWrapper(dir, '"$QWEN_PROJECT_DIR"/.qwen'),
  };
}

const QWEN_DIR = "/.qwen/";

function qwenHome({ home, env }: LocateInput): string {
  return env["QWEN_HOME"] ?? join(home, ".qwen");
}

// Alibaba's Qwen Code (a Gemini CLI fork): Claude Code's hooks in its own settings.json.
export const qwenCode = defineClient({
  id: "qwen-code",
  name: "Qwen Code",
  agent: "Qwen",
  verified: "0.24.4",
  program: { command: "qwen", package: "@qwen-code/qwen-code" },
  scopes: ["user", "project"],
  configDir: qwenHome,
  shape: "settings",
  locate,
  events: CLAUDE_FORK_EVENTS,
  timeoutUnit: "seconds",
  acceptsJsonc: true,
  jsoncReason: "",
  imports: [],
  // settings.json's mcpServers (Gemini CLI's): command, args.
  mcp: {
    file: (input) => join(qwenHome(input), "settings.json"),
    format: "json",
    servers: ["mcpServers"],
    entry: stdioEntry(),
  },
  recognises: {
    // Claude Code's payload, told apart by Qwen Code's own transcript folder (before toCanonical
    // drops the path); its hooks get Claude Code's CLAUDE_PROJECT_DIR too.
    payload: transcriptIn(QWEN_DIR),
    transcriptDirs: [QWEN_DIR],
    env: ["QWEN_PROJECT_DIR"],
    alsoSets: [claudeCode.id],
  },
  env: ["QWEN_HOME"],
  output:
    "Claude Code's rules: JSON on stdout or exit 2 from Stop keeps the agent working; StopFailure's output is ignored",
  toCanonical: claudeForkToCanonical,
});
