import { join } from "node:path";
import type { LocateInput, Place, Scope } from "../core/install-target.js";
import { compact, defineClient, stdioEntry } from "./adapter.js";

// Verified against Pi 1.6.0 (@earendil-works/pi-coding-agent, formerly @mariozechner/...), its
// docs (extensions.md, configuration.md) read and run for real against a model on loopback:
// - no command hooks: TypeScript or JavaScript extensions in <agent dir>/extensions/*.js
//   (PI_CODING_AGENT_DIR, else ~/.pi/agent) and .pi/extensions/ (only in a trusted project), so
//   hook-notify writes an extension of its own there (settings/plan-pi-file.ts).
// - the extension sends agent_settled (Pi will not go on by itself; aborted when the person
//   stopped it) with the run's last assistant text, its stopReason ("error" with errorMessage
//   when the model call failed), and session_shutdown with its reason (quit, reload, new,
//   resume, fork); each with the session's id and folder.
function locate(scope: Scope, input: LocateInput): Place {
  if (scope === "user")
    return { scope, file: join(agentDir(input), "extensions", "hook-notify.js") };
  const dir = join(input.projectDir, ".pi");
  return {
    scope,
    file: join(dir, "extensions", "hook-notify.js"),
    // The extension finds the wrapper beside its folder: a path relative to the extension file.
    wrapper: { path: join(dir, "hooks", "hook-notify.sh"), command: "../hooks/hook-notify.sh" },
  };
}

function agentDir({ home, env }: LocateInput): string {
  return env["PI_CODING_AGENT_DIR"] ?? join(home, ".pi", "agent");
}

const EVENTS = { agent_settled: "Stop", session_shutdown: "SessionEnd" } as const;

// The extension's events in hook-notify's names: a run the person stopped, and a session that
// is only replaced (/new, /resume, /fork, /reload), tell them nothing; a failed model call is a
// failure.
function toCanonical(raw: Record<string, unknown>): Record<string, unknown> {
  const type = raw["type"];
  if (type === "agent_settled" && raw["aborted"] === true)
    return { hook_event_name: "agent_settled (aborted)" };
  if (type === "session_shutdown" && raw["reason"] !== "quit")
    return { hook_event_name: `session_shutdown (${String(raw["reason"])})` };
  const out: Record<string, unknown> = {
    ...raw,
    hook_event_name:
      type === "agent_settled" ? "Stop" : type === "session_shutdown" ? "SessionEnd" : type,
  };
  if (type === "agent_settled" && raw["stop_reason"] === "error") {
    out["hook_event_name"] = "StopFailure";
    out["error"] = errorKind(raw["error_message"]);
    out["error_details"] = raw["error_message"];
  }
  return compact(out);
}

// Claude Code's name for a failed model call, from the HTTP status Pi puts first in its error
// message ("400: {...}"); a 429 is a rate limit (a usage-limit notification).
function errorKind(message: unknown): string {
  const status = Number(/^(\d{3})\b/.exec(typeof message === "string" ? message : "")?.[1]);
  if (status === 429) return "rate_limit";
  if (status === 401 || status === 403) return "authentication_failed";
  if (status >= 500) return "server_error";
  if (status >= 400) return "invalid_request";
  return "unknown";
}

// Pi (pi.dev): an extension of hook-notify's own runs it per event with an argument array.
export const pi = defineClient({
  id: "pi",
  name: "Pi",
  agent: "Pi",
  verified: "1.6.0",
  program: { command: "pi", package: "@earendil-works/pi-coding-agent" },
  scopes: ["user", "project"],
  configDir: agentDir,
  shape: "pi-extension",
  locate,
  events: EVENTS,
  timeoutUnit: "seconds",
  acceptsJsonc: false,
  jsoncReason: "the extension file is hook-notify's own",
  imports: [],
  runsArgv: true,
  projectNeedsTrust: true,
  // <agent dir>/mcp.json's mcpServers (docs/mcp.md): command, args.
  mcp: {
    file: (input) => join(agentDir(input), "mcp.json"),
    format: "json",
    servers: ["mcpServers"],
    entry: stdioEntry(),
  },
  recognises: {
    // The extension's events: Pi's event type without OpenCode's properties.
    payload: (raw) =>
      (raw["type"] === "agent_settled" || raw["type"] === "session_shutdown") &&
      raw["properties"] === undefined,
  },
  env: ["PI_CODING_AGENT_DIR"],
  afterInstall:
    "Pi loads extensions when it starts: restart Pi (or run /reload) to pick up hook-notify's extension.",
  output:
    "an extension, not a hook: Pi reads nothing from hook-notify; the extension ignores its output and exit code and stops it at the entry's timeout",
  toCanonical,
});
