// `hook-notify install`: writes hook-notify's hook entries into each agent client's hook files.
import type { CommandModule } from "yargs";
import { clientNames, clients } from "../clients/index.js";
import { EXIT, isInterrupt } from "./exit-codes.js";
import { exitNow, exitWhenDone } from "../exit.js";
import { finishApprove, planApprove } from "./install-approve.js";
import { approveExample, dryRunExample, projectExample, retryExample } from "./install-examples.js";
import { RETRY_ENTRY_SECONDS } from "../core/defaults.js";
import { settingsArgs, withSettingsFlags, type SettingsFlags } from "./settings-flags.js";

// Runs the shared install/uninstall flow with the real terminal, home and environment.
export async function runSettingsHandler(
  action: "install" | "uninstall",
  flags: SettingsFlags,
): Promise<void> {
  if (action === "install" && flags.retry === true && flags.approve !== true) {
    // Before the config is checked: the mistake is the flags', whatever the config holds.
    console.error(
      "hook-notify install: --retry adds the phone's Let it retry ask to --approve's entries: run install --approve --retry.",
    );
    exitWhenDone(EXIT.usage);
    return;
  }
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
  const args = settingsArgs(action, flags, approve);
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
      .option("retry", {
        type: "boolean",
        default: false,
        describe: `With --approve, ${clients
          .filter((adapter) => adapter.answersRetry === true)
          .map((adapter) => adapter.name)
          .join(
            " and ",
          )}: also offer "Let it retry" on the phone when auto mode blocks an action (a second PermissionDenied entry beside the notification, timeout ${RETRY_ENTRY_SECONDS} s: the agent waits for it)`,
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
      .example(...approveExample())
      .example(...retryExample()),
  handler: async (flags) => {
    await runSettingsHandler("install", flags);
  },
};
