// Cursor: what was read and run to write this adapter (its files, payloads, environment and
// exit codes) is in docs/clients/cursor.md.
import { join } from "node:path";
import type { LocateInput, Place, Scope } from "../core/install-target.js";
import { canonicalName, compact, defineClient, projectWrapper, stdioEntry } from "./adapter.js";
import { claudeCode } from "./claude-code.js";

function locate(scope: Scope, { home, projectDir }: LocateInput): Place {
  if (scope === "user") return { scope, file: join(home, ".cursor", "hooks.json") };
  const dir = join(projectDir, ".cursor");
  const wrapper = projectWrapper(dir, '"$CURSOR_PROJECT_DIR"/.cursor');
  return { scope, file: join(dir, "hooks.json"), wrapper };
}

const events = { stop: "Stop", sessionEnd: "SessionEnd" } as const;

// Cursor's names onto hook-notify's: the conversation is the session, the first workspace root
// the folder. A stop on an error failed; an aborted one is the person's own doing.
function toCanonical(raw: Record<string, unknown>): Record<string, unknown> {
  const name = typeof raw["hook_event_name"] === "string" ? raw["hook_event_name"] : "";
  const status = raw["status"];
  if (name === "stop" && status === "aborted") return { hook_event_name: "stop (aborted)" };
  const roots = raw["workspace_roots"];
  const out: Record<string, unknown> = {
    ...raw,
    hook_event_name: canonicalName({ events }, name),
    session_id: raw["conversation_id"] ?? raw["session_id"],
    cwd: Array.isArray(roots) ? roots[0] : undefined,
  };
  // Its transcript is its own format, not Claude Code's: not passed on to be read.
  delete out["transcript_path"];
  if (name === "stop" && status === "error") {
    out["hook_event_name"] = "StopFailure";
    out["error"] = "error";
  }
  if (name === "sessionEnd") out["error_details"] = raw["error_message"];
  return compact(out);
}

// Cursor (editor agent and CLI): flat entries in a version 1 hooks.json it shares; seconds.
export const cursor = defineClient({
  id: "cursor",
  name: "Cursor",
  agent: "Cursor",
  verified: "1.0.32",
  program: { command: "cursor-agent" },
  scopes: ["user", "project"],
  configDir: ({ home }) => join(home, ".cursor"),
  shape: "entries",
  fileVersion: 1,
  locate,
  events,
  timeoutUnit: "seconds",
  // It strips comments before JSON.parse; trailing commas it does not take.
  acceptsJsonc: true,
  jsoncReason: "",
  projectNeedsTrust: true,
  // It runs Claude Code's hook entries too, but with its own payload ("stop", "sessionEnd"),
  // which hook-notify --client claude-code ignores: nothing notifies twice.
  imports: [],
  // ~/.cursor/mcp.json's mcpServers: command, args.
  mcp: {
    file: ({ home }) => join(home, ".cursor", "mcp.json"),
    format: "json",
    servers: ["mcpServers"],
    entry: stdioEntry(),
  },
  recognises: {
    // Auggie's conversation_id and workspace_roots too, but with cursor_version (its executor
    // adds it to every payload; older documentation calls it optional) or camelCase event names.
    payload: (raw) =>
      typeof raw["conversation_id"] === "string" &&
      Array.isArray(raw["workspace_roots"]) &&
      (typeof raw["cursor_version"] === "string" ||
        (typeof raw["hook_event_name"] === "string" && /^[a-z]/.test(raw["hook_event_name"]))),
    env: ["CURSOR_PROJECT_DIR", "CURSOR_VERSION"],
    // It sets CLAUDE_PROJECT_DIR for its hooks too.
    alsoSets: [claudeCode.id],
  },
  env: [],
  output:
    "stop's stdout may hold a followup_message that makes the agent go on, and exit 2 blocks an action, so hook-notify prints nothing and exits 0",
  afterInstall:
    "Restart Cursor (or start a new cursor-agent session) to pick up hooks.json. Cursor has no hook for an agent waiting for you: hook-notify tells you when a turn is done or failed, and when a session ends.",
  toCanonical,
});
