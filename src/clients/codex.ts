import { join } from "node:path";
import type { LocateInput, Place, Scope } from "../core/install-target.js";
import { compact, defineClient, projectWrapper, stdioEntry } from "./adapter.js";

// Codex 0.169.0 runs hooks from hooks.json beside each config layer: $CODEX_HOME (~/.codex) and
// <repo>/.codex (only in a trusted project). It sets no project variable, so the project
// wrapper is found through git.
function locate(scope: Scope, input: LocateInput): Place {
  if (scope === "user") {
    return {
      scope,
      file: join(codexHome(input), "hooks.json"),
    };
  }
  const dir = join(input.projectDir, ".codex");
  return {
    scope,
    file: join(dir, "hooks.json"),
    wrapper: projectWrapper(dir, '"$(git rev-parse --show-toplevel)"/.codex'),
  };
}

function codexHome({ home, env }: LocateInput): string {
  return env["CODEX_HOME"] ?? join(home, ".codex");
}

// Codex sends Claude Code's field names on stdin. Its legacy `notify` program gets one JSON
// argument instead ({"type": "agent-turn-complete", "thread-id", "last-assistant-message", ...}).
function toCanonical(raw: Record<string, unknown>): Record<string, unknown> {
  if (raw["type"] === "agent-turn-complete" && raw["hook_event_name"] === undefined) {
    // The TUI also reports the turn that writes the task title: nothing the person waits for.
    if (isTitleTurn(raw["input-messages"]))
      return { hook_event_name: "agent-turn-complete (title)" };
    return compact({
      hook_event_name: "Stop",
      session_id: raw["thread-id"],
      cwd: raw["cwd"],
      last_assistant_message: raw["last-assistant-message"],
    });
  }
  const out: Record<string, unknown> = { ...raw };
  // Its transcript is a rollout file, not Claude Code's: the payload carries what we need.
  delete out["transcript_path"];
  if (raw["hook_event_name"] === "PermissionRequest") {
    // Codex asks for approval on this event: that is "needs you", like Claude's Notification.
    const tool = typeof raw["tool_name"] === "string" ? raw["tool_name"] : undefined;
    out["hook_event_name"] = "Notification";
    out["notification_type"] = "permission_prompt";
    out["message"] = tool ? `Codex needs your permission to use ${tool}` : undefined;
  }
  // SessionEnd's reason is always "other" in 0.169.0: it says nothing about failure.
  if (raw["hook_event_name"] === "SessionEnd") delete out["reason"];
  return compact(out);
}

const TITLE_PROMPT = "Generate a concise, single-line task title";

function isTitleTurn(messages: unknown): boolean {
  return Array.isArray(messages) && messages.some((m) => String(m).startsWith(TITLE_PROMPT));
}

// OpenAI's Codex CLI: Claude-shaped hooks.json, timeouts in seconds; hooks run once trusted.
export const codex = defineClient({
  id: "codex",
  name: "Codex",
  agent: "Codex",
  verified: "0.171.0",
  program: { command: "codex", package: "@openai/codex" },
  scopes: ["user", "project"],
  configDir: codexHome,
  shape: "settings",
  locate,
  events: {
    PermissionRequest: "Notification",
    Stop: "Stop",
    SubagentStop: "SubagentStop",
    SessionEnd: "SessionEnd",
  },
  timeoutUnit: "seconds",
  acceptsJsonc: false,
  jsoncReason: "Codex reads hooks.json as strict JSON",
  imports: [],
  projectNeedsTrust: true,
  // Its PermissionRequest output schema (permission-request.command.output in the 0.169.0
  // binary) takes Claude Code's decision JSON: behavior allow/deny, an optional message.
  answersPermissions: true,
  // config.toml's [mcp_servers.<name>] tables: command, args.
  mcp: {
    file: (input) => join(codexHome(input), "config.toml"),
    format: "toml",
    servers: ["mcp_servers"],
    entry: stdioEntry(),
  },
  // Its legacy `notify` program's argument: {"type": "agent-turn-complete", ...}.
  recognises: { payload: (raw) => raw["type"] === "agent-turn-complete" },
  env: ["CODEX_HOME"],
  output:
    "stdout is parsed as hook JSON (a Stop decision can continue the turn) and exit 2 blocks; matching hooks run concurrently",
  afterInstall:
    "Codex runs a new or changed hook only after you trust it: open /hooks in codex and trust hook-notify's entries (a project's hooks also need the project trusted).",
  toCanonical,
});
