import { join } from "node:path";
import type { LocateInput, Place, Scope } from "../core/install-target.js";
import { canonicalName, compact, defineClient } from "./adapter.js";

// OpenCode 1.18.33 loads every plugin file in ~/.config/opencode/plugins and .opencode/plugins
// (plugin/ too); it has no command hooks, so hook-notify keeps a plugin file of its own there.
function locate(scope: Scope, input: LocateInput): Place {
  if (scope === "user") {
    const file = join(configDir(input), "plugins", "hook-notify.js");
    return { scope, file };
  }
  const dir = join(input.projectDir, ".opencode");
  return {
    scope,
    file: join(dir, "plugins", "hook-notify.js"),
    // The plugin finds the wrapper beside itself: a path relative to the plugin file.
    wrapper: { path: join(dir, "hooks", "hook-notify.sh"), command: "../hooks/hook-notify.sh" },
  };
}

// xdg-basedir, as OpenCode resolves it: $XDG_CONFIG_HOME/opencode, else ~/.config/opencode.
function configDir({ home, env }: LocateInput): string {
  return join(env["XDG_CONFIG_HOME"] ?? join(home, ".config"), "opencode");
}

/** The bus events the plugin forwards: done, needs-you, failed. */
export const busEvents = {
  "session.idle": "Stop",
  "permission.asked": "Notification",
  "session.error": "StopFailure",
} as const;

// What the plugin pipes in: OpenCode's event ({type, properties}) plus the plugin's `directory`
// and the session's last assistant text (followed from message.part.updated by the plugin).
// Shared with the clients built on OpenCode (Kilo Code CLI); `agent` names the client.
export function busEventToCanonical(agent: string) {
  return (raw: Record<string, unknown>): Record<string, unknown> => {
    const type = typeof raw["type"] === "string" ? raw["type"] : "";
    const props = record(raw["properties"]);
    const out: Record<string, unknown> = {
      ...raw,
      hook_event_name: Object.hasOwn(busEvents, type)
        ? canonicalName({ events: busEvents }, type)
        : (raw["hook_event_name"] ?? type),
      session_id: props["sessionID"],
      cwd: raw["directory"],
    };
    if (type === "permission.asked") {
      const what = typeof props["permission"] === "string" ? props["permission"] : undefined;
      out["notification_type"] = "permission_prompt";
      out["tool_name"] = what;
      out["message"] = what ? `${agent} needs your permission to use ${what}` : undefined;
    }
    if (type === "session.error") {
      const error = record(props["error"]);
      const data = record(error["data"]);
      out["error"] = typeof error["name"] === "string" ? error["name"] : "error";
      out["error_details"] = data["message"];
      // An APIError with HTTP 429 (its data: message, statusCode, responseHeaders) is a rate
      // limit: a usage limit to hook-notify, with the server's retry-after when it sent one.
      if (error["name"] === "APIError" && data["statusCode"] === 429) {
        out["error"] = "rate_limit";
        out["retry_after"] = record(data["responseHeaders"])["retry-after"];
      }
    }
    return compact(out);
  };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

// OpenCode (opencode-ai): a plugin of hook-notify's own runs it per event with an argument array.
export const opencode = defineClient({
  id: "opencode",
  name: "OpenCode",
  agent: "OpenCode",
  verified: "1.18.33",
  program: { command: "opencode", package: "opencode-ai" },
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
  // opencode.json's mcp: a "local" server whose command is the whole argument array.
  mcp: {
    file: (input) => join(configDir(input), "opencode.json"),
    format: "json",
    servers: ["mcp"],
    entry: (command, args) => ({ type: "local", command: [command, ...args], enabled: true }),
  },
  recognises: {
    // Its bus events ({type: "session.idle", properties}) as its plugin pipes them.
    payload: (raw) =>
      typeof raw["type"] === "string" &&
      raw["properties"] !== undefined &&
      raw["type"].includes("."),
  },
  env: ["XDG_CONFIG_HOME"],
  afterInstall:
    "OpenCode loads plugins when it starts: restart OpenCode to pick up hook-notify's plugin.",
  output:
    "a plugin, not a hook: OpenCode reads nothing from hook-notify; the plugin ignores its output and exit code and stops it at the entry's timeout",
  toCanonical: busEventToCanonical("OpenCode"),
});
