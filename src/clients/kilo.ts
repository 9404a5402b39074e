import { join } from "node:path";
import type { LocateInput, Place, Scope } from "../core/install-target.js";
import { defineClient } from "./adapter.js";
import { busEvents, busEventToCanonical } from "./opencode.js";

// Verified against Kilo Code CLI 7.7.7 (@kilocode/cli; 7.8.1 has no Linux binary published), its
// binary read and run for real:
// - an OpenCode fork: no command hooks; it loads every {plugin,plugins}/*.{ts,js} in its config
//   folders: $KILO_CONFIG_DIR, ~/.config/kilo ($XDG_CONFIG_HOME/kilo), and the .kilo (and legacy
//   .kilocode) folders from the working directory up to the project root.
// - the plugin gets OpenCode's bus events: session.idle (done), permission.asked (needs you:
//   properties.permission), session.error (failed: properties.error {name, data.message}).
// - hook-notify's plugin file is the OpenCode one; it pipes {type, properties, directory} and
//   the session's last assistant text.
// - it sets KILO=1, KILO_PID (and OPENCODE=1) in its own environment, which the plugin's child
//   inherits.
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
