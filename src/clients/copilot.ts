import { join } from "node:path";
import type { LocateInput, Place, Scope } from "../core/install-target.js";
import { canonicalName, compact, defineClient, stdioEntry } from "./adapter.js";

// Copilot CLI 1.0.102 runs every *.json in $COPILOT_HOME/hooks (~/.copilot/hooks) and in a
// repository's .github/hooks: hook-notify keeps its own hook-notify.json there.
function locate(scope: Scope, input: LocateInput): Place {
  if (scope === "user") {
    const file = join(copilotHome(input), "hooks", "hook-notify.json");
    return { scope, file };
  }
  const dir = join(input.projectDir, ".github", "hooks");
  return {
    scope,
    file: join(dir, "hook-notify.json"),
    wrapper: {
      path: join(dir, "hook-notify.sh"),
      command: '"$(git rev-parse --show-toplevel)"/.github/hooks/hook-notify.sh',
    },
  };
}

function copilotHome({ home, env }: LocateInput): string {
  return env["COPILOT_HOME"] ?? join(home, ".copilot");
}

const events = {
  notification: "Notification",
  agentStop: "Stop",
  subagentStop: "SubagentStop",
  sessionEnd: "SessionEnd",
  errorOccurred: "StopFailure",
} as const;

// Copilot's payloads are camelCase without an event name (the entry's --event gives it), except
// its notification, which arrives in Claude Code's shape. Its transcript is its own events.jsonl.
function toCanonical(raw: Record<string, unknown>): Record<string, unknown> {
  const name = typeof raw["hook_event_name"] === "string" ? raw["hook_event_name"] : "";
  const out: Record<string, unknown> = { ...raw, hook_event_name: canonicalName({ events }, name) };
  delete out["transcriptPath"];
  delete out["transcript_path"];
  if (name === "errorOccurred") {
    const error = raw["error"];
    const message =
      typeof error === "object" && error !== null
        ? (error as Record<string, unknown>)["message"]
        : error;
    out["error"] = typeof raw["errorContext"] === "string" ? raw["errorContext"] : "error";
    out["error_details"] = typeof message === "string" ? message : undefined;
  }
  return compact(out);
}

// GitHub's Copilot CLI: flat {"bash", "timeoutSec"} entries in version 1 files; seconds.
export const copilot = defineClient({
  id: "copilot",
  name: "Copilot CLI",
  agent: "Copilot",
  verified: "1.0.102",
  program: { command: "copilot", package: "@github/copilot" },
  scopes: ["user", "project"],
  configDir: copilotHome,
  shape: "flat",
  locate,
  events,
  namesEventInArgs: true,
  timeoutUnit: "seconds",
  acceptsJsonc: false,
  jsoncReason: "Copilot CLI reads its hook files as strict JSON",
  imports: [],
  // mcp-config.json's mcpServers: a "local" server, with the tools it may call.
  mcp: {
    file: (input) => join(copilotHome(input), "mcp-config.json"),
    format: "json",
    servers: ["mcpServers"],
    entry: stdioEntry({ type: "local", tools: ["*"] }),
  },
  recognises: {},
  env: ["COPILOT_HOME"],
  output:
    "stdout of agentStop, subagentStop and permission hooks is read as a decision; the payload has no event name, so each entry passes --event",
  toCanonical,
});
