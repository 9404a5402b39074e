import { join } from "node:path";
import type { LocateInput, Place, Scope } from "../core/install-target.js";
import { defineClient, projectWrapper, stdioEntry } from "./adapter.js";
import { claudeCode, claudeHookEvents } from "./claude-code.js";

// Droid 0.215.0 reads ~/.factory/hooks.json and .factory/hooks.json (bare map); local did not fire.
function locate(scope: Scope, { home, projectDir }: LocateInput): Place {
  const dir = join(scope === "user" ? home : projectDir, ".factory");
  const target: Place = {
    scope,
    file: join(dir, "hooks.json"),
    legacyFile: join(dir, "settings.json"),
  };
  if (scope === "project") target.wrapper = projectWrapper(dir, '"$FACTORY_PROJECT_DIR"/.factory');
  return target;
}

// Factory's Droid: Claude Code's hook names and payload fields, in its own files.
export const droid = defineClient({
  id: "droid",
  name: "Droid",
  nameInSentences: "droid",
  agent: "Droid",
  verified: "0.215.0",
  program: { command: "droid", package: "droid" },
  scopes: ["user", "project"],
  noScope: {
    local:
      'Droid does not run hooks from .factory/settings.local.json ("droid exec" ignored them). Use --scope project (shared) or --scope user.',
  },
  configDir: ({ home }) => join(home, ".factory"),
  shape: "bare",
  locate,
  events: claudeHookEvents,
  timeoutUnit: "seconds",
  acceptsJsonc: false,
  jsoncReason:
    "droid silently ignores a hooks file that is not strict JSON, so none of its hooks run",
  imports: [claudeCode.id],
  noApprove:
    "droid has no PermissionRequest event, so approving from the phone does not exist there; nothing was written for droid.",
  windowsCommand: "cmd",
  enrichedByService: true,
  // ~/.factory/mcp.json's mcpServers (read by 0.215.0's loader): type stdio, command, args.
  mcp: {
    file: ({ home }) => join(home, ".factory", "mcp.json"),
    format: "json",
    servers: ["mcpServers"],
    entry: stdioEntry({ type: "stdio" }),
  },
  recognises: { transcriptDirs: ["/.factory/"], env: ["FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR"] },
  env: [],
  output: "Claude Code's rules: JSON on stdout or exit 2 from Stop keeps the agent working",
  toCanonical: (raw) => raw,
});
