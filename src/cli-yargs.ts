import type { Argv, CommandModule } from "yargs";
import { runCommand } from "./commands/run.js";
import { version } from "./version.js";
import { CLIENT_IDS, isClient } from "./core/hook-event.js";
import { configOption } from "./commands/config-option.js";

interface RunOptions {
  config: string | undefined;
  timeout: number | undefined;
  client: string | undefined;
  event: string | undefined;
  "dry-run": boolean | undefined;
  wait: boolean | undefined;
}

const runModule: CommandModule<object, RunOptions> = {
  command: ["run", "$0"],
  describe: "Hook mode (the default): read one hook event on stdin and notify",
  builder: (y) =>
    y
      .option("config", configOption)
      .option("timeout", {
        type: "number",
        describe: "Seconds the client gives this hook entry; the process ends inside it",
      })
      .option("client", {
        choices: CLIENT_IDS,
        describe: "Which client runs the hook (install writes it)",
      })
      .option("event", {
        type: "string",
        describe: "The event's name, for a client whose payload has none (Copilot CLI)",
      })
      .option("dry-run", {
        type: "boolean",
        describe: "Print one JSON line per planned delivery; send nothing",
      })
      .option("wait", {
        type: "boolean",
        describe: "Deliver in the foreground and print one result line per sink",
      })
      .example("cat event.json | $0 --dry-run", "show what would be sent")
      .example("cat event.json | $0 --wait", "send now and print the results")
      .example("$0 --client droid --timeout 10", "what an installed hook entry runs"),
  handler: async (args) => {
    await runCommand({
      config: args.config,
      timeout: args.timeout,
      client: isClient(args.client) ? args.client : undefined,
      event: args.event,
      dryRun: args["dry-run"] === true,
      wait: args.wait === true,
    });
  },
};

// `hook-notify approve` without yargs (cli.ts): the approve code travels in this bundle, not the hook's.
export async function runApprove(argv: string[]): Promise<void> {
  const { parseApproveArgs, runApproveCommand } = await import("./commands/approve.js");
  await runApproveCommand(parseApproveArgs(argv));
}

// Every command but the hook path: yargs and the command modules load only here.
export async function runYargs(argv: string[]): Promise<void> {
  const { default: yargs } = await import("yargs");
  const commands = await loadCommands();
  const parser: Argv = yargs(argv)
    .scriptName("hook-notify")
    .usage(
      "$0 [command]\n\nTells you when your coding agent (Droid, Claude Code, Codex, Gemini CLI, Copilot CLI) needs you.",
    )
    .version(version)
    .command(runModule as unknown as CommandModule)
    .strict()
    .help()
    .alias("h", "help")
    .alias("v", "version")
    .wrap(Math.min(100, process.stdout.columns || 100))
    .fail((message: string | undefined, error: Error | undefined) => {
      console.error(`hook-notify: ${message ?? error?.message ?? "usage error"}`);
      console.error("Run hook-notify --help for usage.");
      process.exit(1);
    });
  for (const command of commands) parser.command(command);
  await parser.parseAsync();
}

async function loadCommands(): Promise<CommandModule[]> {
  const [install, uninstall, flush, test, log, doctor, init, watch, computers, approve] =
    await Promise.all([
      import("./commands/install.js"),
      import("./commands/uninstall.js"),
      import("./commands/flush.js"),
      import("./commands/test.js"),
      import("./commands/log.js"),
      import("./commands/doctor.js"),
      import("./commands/init.js"),
      import("./commands/watch.js"),
      import("./commands/computers.js"),
      import("./commands/approve.js"),
    ]);
  return [
    install.installCommand,
    uninstall.uninstallCommand,
    flush.flushCommand,
    test.testCommand,
    log.logCommand,
    doctor.doctorCommand,
    init.initCommand,
    watch.watchCommand,
    computers.computersCommand,
    approve.approveCommand,
  ] as unknown as CommandModule[];
}
