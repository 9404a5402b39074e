import type { Argv, CommandModule } from "yargs";
import { runCommand } from "./commands/run.js";
import { version } from "./version.js";
import { clientNames } from "./clients/index.js";
import { RUN_FLAGS, toRunArgs } from "./commands/run-flags.js";
import { EXIT, EXIT_CODES_HELP, exitQuietly, isInterrupt } from "./commands/exit-codes.js";
import { HookNotifyError } from "./errors.js";

function isUsageError(error: Error): boolean {
  return error instanceof HookNotifyError && error.code === "USAGE";
}

const runModule: CommandModule = {
  command: ["run", "$0"],
  describe: "Hook mode (the default): read one hook event on stdin and notify",
  builder: (y) =>
    Object.entries(RUN_FLAGS)
      .reduce(
        (parser, [name, { short, choices, ...flag }]) =>
          parser.option(name, {
            ...(choices === undefined ? flag : { choices, describe: flag.describe }),
            ...(short === undefined ? {} : { alias: short }),
          }),
        y,
      )
      .example("cat event.json | $0 --dry-run", "show what would be sent")
      .example("cat event.json | $0 --wait", "send now and print the results")
      .example("$0 --client droid --timeout 10", "what an installed hook entry runs"),
  handler: async (args) => {
    await runCommand(toRunArgs(args));
  },
};

// `hook-notify approve` without yargs (cli.ts): the approve code travels in this bundle, not the hook's.
export async function runApprove(argv: string[]): Promise<void> {
  const { parseApproveArgs, runApproveCommand } = await import("./commands/approve.js");
  await runApproveCommand(parseApproveArgs(argv));
}

// Every command but the hook path: yargs and the command modules load only here.
export async function runYargs(given: string[]): Promise<void> {
  exitQuietly();
  const [{ unknownCommandMessage }, { COMMAND_NAMES, commandAfterGlobals }] = await Promise.all([
    import("./did-you-mean.js"),
    import("./commands/hook-argv.js"),
  ]);
  // `help <command>` is `<command> --help`, also after global options (`--no-color help log`).
  const at = Math.max(0, commandAfterGlobals(given));
  if (given[at] === "help" && given[at + 1] === "exit-codes") {
    process.stdout.write(EXIT_CODES_HELP);
    return;
  }
  const argv =
    given[at] === "help" ? [...given.slice(0, at), ...given.slice(at + 1), "--help"] : given;
  const unknown = unknownCommandMessage(argv[0], COMMAND_NAMES);
  if (unknown !== undefined) {
    console.error(unknown);
    process.exitCode = EXIT.usage;
    return;
  }

  applyColorFlag(argv);
  const { default: yargs } = await import("yargs");
  const commands = await loadCommands();
  const parser: Argv = yargs(argv)
    .scriptName("hook-notify")
    .usage(
      `$0 [command]\n\nTells you when your coding agent (${clientNames(",")}) needs you.\nhook-notify help <command> (or <command> --help) shows a command's options.`,
    )
    .version(version)
    .command(runModule)
    .option("color", {
      type: "boolean",
      describe:
        "--color: colour even when not on a terminal (as FORCE_COLOR=1); --no-color: none (as NO_COLOR=1)",
    })
    // yargs' own script command, under a name nobody types: `completion [shell]` (completion.ts)
    // prints the scripts; yargs answers their --get-yargs-completions.
    .completion("__yargs-completion", false)
    .recommendCommands()
    .strict()
    .help()
    .alias("h", "help")
    .alias("version", ["v", "V"])
    .wrap(Math.min(100, process.stdout.columns || 100))
    .fail((message: string | undefined, error: Error | undefined) => {
      if (isInterrupt(error)) process.exit(EXIT.interrupted);
      console.error(`hook-notify: ${message ?? error?.message ?? "usage error"}`);
      // yargs' own complaints (unknown flag, bad value) are usage; a command's throw is a failure.
      // (A failed .check() passes its message string as the "error".)
      const usage = !(error instanceof Error) || error.name === "YError" || isUsageError(error);
      if (usage) console.error("Run hook-notify --help for usage.");
      process.exit(usage ? EXIT.usage : EXIT.failure);
    });
  for (const command of commands) parser.command(command);
  await parser.parseAsync();
}

// --color / --no-color set what every command's style reads (src/style.ts): FORCE_COLOR, NO_COLOR.
function applyColorFlag(argv: readonly string[]): void {
  const last = argv.findLast((word) => word === "--color" || word === "--no-color");
  if (last === "--no-color") {
    process.env["NO_COLOR"] = "1";
    delete process.env["FORCE_COLOR"];
  } else if (last === "--color") {
    process.env["FORCE_COLOR"] = "1";
    delete process.env["NO_COLOR"];
  }
}

async function loadCommands(): Promise<CommandModule[]> {
  const [
    install,
    uninstall,
    flush,
    test,
    log,
    doctor,
    init,
    watch,
    computers,
    approve,
    sessions,
    usage,
    controls,
    mcp,
    completion,
  ] = await Promise.all([
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
    import("./commands/sessions.js"),
    import("./commands/usage.js"),
    import("./commands/controls.js"),
    import("./commands/mcp.js"),
    import("./commands/completion.js"),
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
    sessions.sessionsCommand,
    usage.usageCommand,
    controls.controlsCommand,
    mcp.mcpCommand,
    completion.completionCommand,
  ] as unknown as CommandModule[];
}
