// The flags `install` and `uninstall` share, defined once, and what they become for the
// settings command (settings/settings-command.ts).
import type { Argv } from "yargs";
import { CLIENT_IDS, clients } from "../clients/index.js";
import type { Client } from "../core/hook-event.js";
import type { SettingsArgs } from "../settings/settings-command.js";

/** The flags install and uninstall share, as yargs parses them. */
export interface SettingsFlags {
  /** A client id, or "all". */
  client: Client | undefined;
  scope: "user" | "project" | "local";
  events: string[] | undefined;
  timeout: number | undefined;
  "project-dir": string | undefined;
  "dry-run": boolean;
  yes: boolean;
  "fix-jsonc": boolean;
  /** install only: add the PermissionRequest entry of `hook-notify approve` (Claude Code, Codex). */
  approve?: boolean | undefined;
  /** install only, with --approve: Claude Code's PermissionDenied "Let it retry" ask too. */
  retry?: boolean | undefined;
  /** install only: register `hook-notify mcp` with the clients that take MCP servers. */
  mcp?: boolean | undefined;
  json: boolean;
}

// One definition of the shared flags, so install and uninstall cannot drift apart; each
// command's --help shows only what it uses (uninstall has no --timeout) in its own words.
export function withSettingsFlags(
  yargs: Argv,
  action: "install" | "uninstall" = "install",
): Argv<SettingsFlags> {
  const installs = action === "install";
  const flags = yargs
    .option("client", {
      choices: [...CLIENT_IDS, "all"] as const,
      describe: installs
        ? "Which client to set up (default: every one with a folder in your home)"
        : "Which client to take hook-notify out of (default: every one with a folder in your home)",
    })
    .option("scope", {
      choices: ["user", "project", "local"] as const,
      default: "user" as const,
      describe: scopeHelp(),
    })
    .option("events", {
      type: "string",
      array: true,
      coerce: (values: string[]) =>
        values
          .flatMap((v) => v.split(","))
          .map((v) => v.trim())
          .filter(Boolean),
      describe: installs
        ? "Events to install (default: Notification, Stop, SubagentStop, SessionEnd, Claude Code's StopFailure, and UserPromptSubmit for Claude Code and Droid, which only records that you answered; each client's own names work too)"
        : "Events to take out (default: all of hook-notify's, and its launcher or wrapper)",
    });
  const timed = installs
    ? flags.option("timeout", {
        type: "number",
        describe: "Seconds for every event (default: 10, SessionEnd 5)",
      })
    : flags;
  return (timed as Argv<SettingsFlags>)
    .option("project-dir", {
      type: "string",
      describe: "The project for --scope project/local (default: .)",
    })
    .option("dry-run", {
      type: "boolean",
      default: false,
      describe: "Print the diff; write nothing",
    })
    .option("yes", {
      alias: "y",
      type: "boolean",
      default: false,
      describe: "Do not ask before writing",
    })
    .option("fix-jsonc", {
      type: "boolean",
      default: false,
      describe: "Rewrite a settings file that has comments or trailing commas as strict JSON",
    })
    .option("json", {
      type: "boolean",
      default: false,
      describe: "Print the result as one JSON object (never asks: writing needs --yes)",
    });
}

// The flags as the settings command takes them; approve: the timeout of install --approve's plan.
export function settingsArgs(
  action: "install" | "uninstall",
  flags: SettingsFlags,
  approve: { timeout: number } | undefined,
): SettingsArgs {
  return {
    client: flags.client,
    scope: flags.scope,
    events: flags.events,
    timeout: flags.timeout,
    projectDir: flags["project-dir"],
    dryRun: flags["dry-run"],
    yes: flags.yes,
    fixJsonc: flags["fix-jsonc"],
    approve: approve === undefined ? undefined : { timeout: approve.timeout },
    retry: action === "install" ? flags.retry === true : undefined,
    mcp: action === "install" ? flags.mcp === true : undefined,
    json: flags.json,
  };
}

// --scope's help: which clients want a trusted project, which have a local scope.
function scopeHelp(): string {
  const agents = (list: typeof clients) => list.map((adapter) => adapter.agent).join(" and ");
  const names = (list: typeof clients) => list.map((adapter) => adapter.name).join(" and ");
  const trusting = clients.filter((adapter) => adapter.projectNeedsTrust === true);
  const local = clients.filter((adapter) => adapter.scopes.includes("local"));
  return `user: all your projects; project: committed with the project (${agents(trusting)}: trusted projects only); local: ${names(local)} only, not committed`;
}
