// Crush: what was read and run to write this adapter (its files, payloads, environment and
// exit codes) is in docs/clients/crush.md.
import { join } from "node:path";
import type { LocateInput, Place, Scope } from "../core/install-target.js";
import { canonicalName, compact, defineClient, projectWrapper } from "./adapter.js";

function locate(scope: Scope, input: LocateInput): Place {
  if (scope === "user") return { scope, file: join(configDir(input), "crush.json") };
  const place: Place = { scope, file: join(input.projectDir, "crush.json") };
  place.wrapper = projectWrapper(join(input.projectDir, ".crush"), '"$CRUSH_PROJECT_DIR"/.crush');
  return place;
}

function configDir({ home, env }: LocateInput): string {
  const global = env["CRUSH_GLOBAL_CONFIG"];
  if (global) return global;
  const xdg = env["XDG_CONFIG_HOME"];
  return join(xdg ? xdg : join(home, ".config"), "crush");
}

const events = {
  PermissionRequest: "Notification",
  TurnEnd: "Stop",
  StopFailure: "StopFailure",
  SessionEnd: "SessionEnd",
} as const;

// Crush's names onto hook-notify's: "event" is the event's name, "text" the turn's answer; its
// permission prompt names no tool, and its failure no error (a turn_error, in Crush's words an
// API or provider error).
function toCanonical(raw: Record<string, unknown>): Record<string, unknown> {
  const name = typeof raw["event"] === "string" ? raw["event"] : raw["hook_event_name"];
  const out: Record<string, unknown> = {
    ...raw,
    hook_event_name: typeof name === "string" ? canonicalName({ events }, name) : name,
    last_assistant_message: raw["text"],
  };
  if (name === "PermissionRequest") {
    out["notification_type"] = "permission_prompt";
    out["message"] = "Crush needs your permission";
  }
  if (name === "StopFailure") out["error"] = "turn_error";
  return compact(out);
}

// Charm's Crush: flat entries under "hooks" in crush.json (strict JSON), beside its other settings; seconds.
export const crush = defineClient({
  id: "crush",
  name: "Crush",
  agent: "Crush",
  verified: "0.90.0",
  program: { command: "crush", package: "@charmland/crush" },
  scopes: ["user", "project"],
  configDir,
  shape: "entries",
  locate,
  events,
  timeoutUnit: "seconds",
  acceptsJsonc: false,
  jsoncReason: "Crush refuses a crush.json that is not strict JSON",
  imports: [],
  recognises: {
    // Its event name under "event", where every other client writes hook_event_name.
    payload: (raw) =>
      typeof raw["event"] === "string" &&
      raw["hook_event_name"] === undefined &&
      typeof raw["session_id"] === "string",
    env: ["CRUSH_SESSION_ID"],
  },
  env: ["CRUSH_GLOBAL_CONFIG", "XDG_CONFIG_HOME"],
  output:
    "exit 0 has stdout parsed as a decision envelope, 2 blocks a tool call and 49 halts the turn, so hook-notify prints nothing and exits 0",
  afterInstall:
    "Crush reads crush.json when it starts: restart crush to pick up the hooks. Only a Crush with its lifecycle hooks (charmbracelet/crush#3146) runs them; an older one keeps the entries and runs only PreToolUse.",
  toCanonical,
});
