// `hook-notify install`: writes hook-notify's hook entries into each agent client's hook files.
import type { Argv, CommandModule } from "yargs";
import type { ApproveInstallPlan as ApprovePlan } from "../approve/install-config.js";
import { approvingClients, CLIENT_IDS, clientNames, clients } from "../clients/index.js";
import type { Client } from "../core/hook-event.js";
import type { SettingsArgs } from "../settings/settings-command.js";
import { EXIT, exitCodeFor, isInterrupt } from "./exit-codes.js";
import { exitNow, exitWhenDone } from "../exit.js";

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

// Runs the shared install/uninstall flow with the real terminal, home and environment.
export async function runSettingsHandler(
  action: "install" | "uninstall",
  flags: SettingsFlags,
): Promise<void> {
  const approve = action === "install" && flags.approve === true ? await planApprove() : undefined;
  if (typeof approve === "number") {
    exitWhenDone(approve);
    return;
  }
  const [{ homedir }, { openTerminalPrompt }, { runSettingsCommand }, { findPackageRoot }] =
    await Promise.all([
      import("node:os"),
      import("./terminal-prompt.js"),
      import("../settings/settings-command.js"),
      import("../settings/load-template.js"),
    ]);
  const args: SettingsArgs = {
    client: flags.client,
    scope: flags.scope,
    events: flags.events,
    timeout: flags.timeout,
    projectDir: flags["project-dir"],
    dryRun: flags["dry-run"],
    yes: flags.yes,
    fixJsonc: flags["fix-jsonc"],
    approve: approve === undefined ? undefined : { timeout: approve.timeout },
    mcp: action === "install" ? flags.mcp === true : undefined,
    json: flags.json,
  };
  const isInteractive = process.stdin.isTTY && process.stdout.isTTY;
  const confirm = async (question: string): Promise<boolean> => {
    const prompt = openTerminalPrompt();
    try {
      return /^y(es)?$/i.test((await prompt.ask(question)).trim());
    } catch (error) {
      if (isInterrupt(error)) exitNow(EXIT.interrupted); // Ctrl-C: nothing written
      throw error;
    } finally {
      prompt.close();
    }
  };
  const machine = {
    home: homedir(),
    projectDir: process.cwd(),
    env: process.env,
    platform: process.platform,
    nodePath: process.execPath,
    packageRoot: findPackageRoot(),
  };
  const code = await runSettingsCommand(action, args, {
    machine,
    out: (text) => {
      process.stdout.write(text);
    },
    err: (line) => {
      console.error(line);
    },
    ...(isInteractive ? { confirm } : {}),
  });
  if (code !== 0) {
    exitWhenDone(code);
    return;
  }
  if (approve !== undefined) await finishApprove(approve, flags["dry-run"], flags.json);
  if (action === "install" && !flags["dry-run"]) await refreshSchema(machine);
}

// The config's schema copy beside it is brought up to this version (init/schema-copy.ts).
async function refreshSchema(machine: {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  home: string;
}) {
  const [{ userConfigPath }, { refreshSchemaCopy }] = await Promise.all([
    import("../config/paths.js"),
    import("../init/schema-copy.js"),
  ]);
  const deps = { env: machine.env, platform: machine.platform, homedir: machine.home };
  await refreshSchemaCopy(userConfigPath(deps));
}

// install --approve checks the config before any file is touched; null: it cannot (said why).
// The plan, or the exit code when there is none (2 for a usage mistake, 1 a broken config).
async function planApprove(): Promise<ApprovePlan | number> {
  const [{ createDeps }, { planApproveInstall }, { toHookNotifyError }] = await Promise.all([
    import("../deps.js"),
    import("../approve/install-config.js"),
    import("../errors.js"),
  ]);
  try {
    return planApproveInstall(createDeps());
  } catch (error) {
    const known = toHookNotifyError(error);
    console.error(`hook-notify install: ${known.message}`);
    return exitCodeFor(known);
  }
}

// After the settings are written: the reply topic into the config, the key into the state folder.
// With --json these lines go to stderr: stdout holds only the JSON object.
async function finishApprove(plan: ApprovePlan, dryRun: boolean, json: boolean): Promise<void> {
  const { applyApproveInstall, describeApproveInstall } =
    await import("../approve/install-config.js");
  const say = json ? console.error : console.log;
  const lines = dryRun ? describeApproveInstall(plan) : applyApproveInstall(plan);
  for (const line of lines) say(line);
  if (!dryRun) say("Next: hook-notify test --approve (answer the sample on your phone).");
}

// --scope's help: which clients want a trusted project, which have a local scope.
function scopeHelp(): string {
  const agents = (list: typeof clients) => list.map((adapter) => adapter.agent).join(" and ");
  const names = (list: typeof clients) => list.map((adapter) => adapter.name).join(" and ");
  const trusting = clients.filter((adapter) => adapter.projectNeedsTrust === true);
  const local = clients.filter((adapter) => adapter.scopes.includes("local"));
  return `user: all your projects; project: committed with the project (${agents(trusting)}: trusted projects only); local: ${names(local)} only, not committed`;
}

type Example = [command: string, description: string];

// The registry's first client, and the file a user-scope install of it changes.
function dryRunExample(): Example {
  const [first] = clients;
  if (first === undefined) return ["$0 install --dry-run", "show what would change"];
  const file = first.locate("user", { home: "~", projectDir: ".", env: {} }).file;
  return [`$0 install --client ${first.id} --dry-run`, `show what would change in ${file}`];
}

// A client with a local scope has a project scope too: its wrapper is the team's to commit.
function projectExample(): Example {
  const client = clients.find((adapter) => adapter.scopes.includes("local")) ?? clients[0];
  return [
    `$0 install --client ${client?.id ?? "<client>"} --scope project`,
    "a wrapper the whole team can commit",
  ];
}

function approveExample(): Example {
  const [client] = approvingClients();
  return [
    `$0 install --client ${client?.id ?? "<client>"} --approve`,
    "approve or deny from the phone",
  ];
}

export const installCommand: CommandModule<object, SettingsFlags> = {
  command: "install",
  describe: `Add hook-notify to the hooks of ${clientNames("and")} (safe to run again)`,
  builder: (yargs) =>
    withSettingsFlags(yargs)
      .option("approve", {
        type: "boolean",
        default: false,
        describe:
          "Claude Code and Codex: also answer permission requests from your phone (ntfy or Telegram Allow/Deny) when you are away",
      })
      .option("mcp", {
        type: "boolean",
        default: false,
        describe: `Also register hook-notify's MCP server (its notify tool, for the agent to ask for you) with ${clients
          .filter((adapter) => adapter.mcp !== undefined)
          .map((adapter) => adapter.name)
          .join(", ")}`,
      })
      .example("$0 install", "every client found in your home, all projects")
      .example(...dryRunExample())
      .example(...projectExample())
      .example("$0 install --events Stop,SessionEnd --timeout 20", "fewer events, a longer budget")
      .example("$0 install --client droid --yes --json", "in a script: the result as JSON")
      .example(...approveExample()),
  handler: async (flags) => {
    await runSettingsHandler("install", flags);
  },
};
