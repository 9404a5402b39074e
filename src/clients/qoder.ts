import { join } from "node:path";
import type { LocateInput, Place, Scope } from "../core/install-target.js";
import { CLAUDE_FORK_EVENTS, claudeForkToCanonical, transcriptIn } from "./claude-fork.js";
import { defineClient, projectWrapper } from "./adapter.js";
import { claudeCode } from "./claude-code.js";

// Read in Qoder CLI 1.1.52 (@qoder-ai/qodercli), its bundle (bundle/qodercli.js); not run: its
// model calls go to Qoder's own service (no base-URL setting), which has no local stand-in.
// - hooks: "hooks" in $QODER_CONFIG_DIR/settings.json (else ~/.qoder/settings.json),
//   .qoder/settings.json and .qoder/settings.local.json; Claude Code's event names and matcher
//   groups; a command's timeout is in seconds (the runner's configured ms is 1000 × timeout).
// - payload (createBaseInput): session_id, transcript_path (~/.qoder/projects/<folder>/<id>.jsonl,
//   its own record), cwd, hook_event_name, permission_mode, model; Notification adds
//   notification_type (permission_prompt, idle_prompt, auth_success, elicitation_*), message,
//   title; Stop adds stop_hook_active, last_assistant_message; StopFailure adds error
//   (rate_limit, auth_error, server_error, http_error, ...), error_details,
//   last_assistant_message; SessionEnd adds reason.
// - the hook's environment has QODER_PROJECT_DIR and CLAUDE_PROJECT_DIR (the project folder);
//   Claude Code's hooks come in only through `qodercli hooks migrate --from-claude`, a copy.
function locate(scope: Scope, input: LocateInput): Place {
  if (scope === "user") return { scope, file: join(qoderHome(input), "settings.json") };
  const dir = join(input.projectDir, ".qoder");
  const name = scope === "project" ? "settings.json" : "settings.local.json";
  const target: Place = { scope, file: join(dir, name) };
  if (scope === "project") target.wrapper = projectWrapper(dir, '"$QODER_PROJECT_DIR"/.qoder');
  return target;
}

const QODER_DIR = "/.qoder/";

function qoderHome({ home, env }: LocateInput): string {
  return env["QODER_CONFIG_DIR"] ?? join(home, ".qoder");
}

// Qoder's CLI (qodercli): Claude Code's hooks in its own settings.json.
export const qoder = defineClient({
  id: "qoder",
  name: "Qoder CLI",
  agent: "Qoder",
  verified: "1.1.52",
  program: { command: "qodercli", package: "@qoder-ai/qodercli" },
  scopes: ["user", "project", "local"],
  configDir: qoderHome,
  shape: "settings",
  locate,
  events: CLAUDE_FORK_EVENTS,
  timeoutUnit: "seconds",
  acceptsJsonc: true,
  jsoncReason: "",
  imports: [],
  recognises: {
    // Claude Code's payload, told apart by Qoder's own transcript folder (before toCanonical
    // drops the path); its hooks get Claude Code's CLAUDE_PROJECT_DIR too.
    payload: transcriptIn(QODER_DIR),
    transcriptDirs: [QODER_DIR],
    env: ["QODER_PROJECT_DIR"],
    alsoSets: [claudeCode.id],
  },
  env: ["QODER_CONFIG_DIR"],
  output:
    "Claude Code's rules: JSON on stdout or exit 2 from Stop keeps the agent working; StopFailure's output is ignored",
  toCanonical: claudeForkToCanonical,
});
