// Qwen Code: what was read and run to write this adapter (its files, payloads, environment and
// exit codes) is in docs/clients/qwen-code.md.
import { join } from "node:path";
import type { LocateInput, Place, Scope } from "../core/install-target.js";
import { CLAUDE_FORK_EVENTS, claudeForkToCanonical, transcriptIn } from "./claude-fork.js";
import { defineClient, projectWrapper, stdioEntry } from "./adapter.js";
import { claudeCode } from "./claude-code.js";

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
