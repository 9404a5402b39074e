// Auggie: what was read and run to write this adapter (its files, payloads, environment and
// exit codes) is in docs/clients/auggie.md.
import { join } from "node:path";
import type { LocateInput, Place, Scope } from "../core/install-target.js";
import { compact, defineClient, projectWrapper } from "./adapter.js";

function locate(scope: Scope, { home, projectDir }: LocateInput): Place {
  if (scope === "user") return { scope, file: join(home, ".augment", "settings.json") };
  const dir = join(projectDir, ".augment");
  const name = scope === "project" ? "settings.json" : "settings.local.json";
  const target: Place = { scope, file: join(dir, name) };
  if (scope === "project") target.wrapper = projectWrapper(dir, '"$AUGMENT_PROJECT_DIR"/.augment');
  return target;
}

// A turn that stopped at its iteration limit or with an empty answer did not finish the task.
const FAILED_CAUSES = new Set(["max_iterations", "empty_completion"]);

// Auggie's names onto hook-notify's: the conversation is the session, the first workspace root
// the folder. An interrupted turn is the person's own doing: nothing to tell them.
function toCanonical(raw: Record<string, unknown>): Record<string, unknown> {
  const name = raw["hook_event_name"];
  const cause = raw["agent_stop_cause"];
  if (name === "Stop" && cause === "interrupted") return { hook_event_name: "Stop (interrupted)" };
  const roots = raw["workspace_roots"];
  const out: Record<string, unknown> = {
    ...raw,
    session_id: raw["conversation_id"],
    cwd: Array.isArray(roots) ? roots[0] : undefined,
  };
  out["last_assistant_message"] =
    record(raw["conversation"])["agentTextResponse"] ??
    record(record(raw["_exchange"])["exchange"])["response_text"];
  if (name === "Stop" && typeof cause === "string" && FAILED_CAUSES.has(cause)) {
    out["hook_event_name"] = "StopFailure";
    out["error"] = cause;
  }
  return compact(out);
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

// Augment Code's CLI (auggie): Claude Code's hook shape in .augment/settings.json; milliseconds.
export const auggie = defineClient({
  id: "auggie",
  name: "Auggie",
  agent: "Auggie",
  verified: "0.36.0",
  program: { command: "auggie", package: "@augmentcode/auggie" },
  scopes: ["user", "project", "local"],
  configDir: ({ home }) => join(home, ".augment"),
  shape: "settings",
  locate,
  events: { Stop: "Stop", SessionEnd: "SessionEnd" },
  timeoutUnit: "milliseconds",
  acceptsJsonc: true,
  jsoncReason: "",
  imports: [],
  recognises: {
    // Its conversation_id and workspace_roots, in place of Claude Code's session_id and cwd, with
    // its PascalCase event names (Cursor sends those two fields too, with camelCase names).
    payload: (raw) =>
      typeof raw["conversation_id"] === "string" &&
      Array.isArray(raw["workspace_roots"]) &&
      typeof raw["hook_event_name"] === "string" &&
      /^[A-Z]/.test(raw["hook_event_name"]),
    env: ["AUGMENT_CONVERSATION_ID"],
  },
  env: [],
  output:
    "stdout is parsed as hook JSON (a hook can answer the agent), so hook-notify prints nothing",
  toCanonical,
});
