// Kilo Code CLI: what was read and run to write this adapter (its files, payloads, environment and
// exit codes) is in docs/clients/kilo.md.
import { join } from "node:path";
import type { LocateInput, Place, Scope } from "../core/install-target.js";
import { defineClient } from "./adapter.js";
import { busEvents, busEventToCanonical } from "./opencode.js";

function locate(scope: Scope, input: LocateInput): Place {
  if (scope === "user") return { scope, file: join(configDir(input), "plugins", "hook-notify.js") };
  const dir = join(input.projectDir, ".kilo");
  return {
    scope,
    file: join(dir, "plugins", "hook-notify.js"),
    // The plugin finds the wrapper beside itself: a path relative to the plugin file.
    wrapper: { path: join(dir, "hooks", "hook-notify.sh"), command: "../hooks/hook-notify.sh" },
  };
}

function configDir({ home, env }: LocateInput): string {
  return env["KILO_CONFIG_DIR"] ?? join(env["XDG_CONFIG_HOME"] ?? join(home, ".config"), "kilo");
}

// Kilo Code's CLI (kilo): hook-notify's OpenCode plugin in Kilo's plugin folders.
export const kilo = defineClient({
  id: "kilo",
  name: "Kilo Code CLI",
  agent: "Kilo",
  verified: "7.7.7",
  program: { command: "kilo", package: "@kilocode/cli" },
  scopes: ["user", "project"],
  configDir,
  shape: "plugin",
  locate,
  events: busEvents,
  timeoutUnit: "seconds",
  acceptsJsonc: false,
  jsoncReason: "the plugin file is hook-notify's own",
  imports: [],
  runsArgv: true,
  // Its plugin pipes OpenCode's bus events; kilo sets KILO=1 and KILO_PID for what it runs.
  recognises: { env: ["KILO_PID", "KILO"] },
  env: ["KILO_CONFIG_DIR", "XDG_CONFIG_HOME"],
  afterInstall: "Kilo loads plugins when it starts: restart kilo to pick up hook-notify's plugin.",
  output:
    "a plugin, not a hook: Kilo reads nothing from hook-notify; the plugin ignores its output and exit code and stops it at the entry's timeout",
  toCanonical: busEventToCanonical("Kilo"),
});
