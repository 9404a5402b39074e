import type { Argv, CommandModule } from "yargs";
import { runCommand } from "./commands/run.js";
import { version } from "./version.js";
import { RUN_FLAGS, toRunArgs } from "./commands/run-flags.js";

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
export async function runYargs(argv: string[]): Promise<void> {
  const { default: yargs } = await import("yargs");
  const commands = await loadCommands();
  const parser: Argv = yargs(argv)
    .scriptName("hook-notify")
    .usage(
      "$0 [command]\n\nTells you when your coding agent (Droid, Claude Code, Codex, Gemini CLI, Copilot CLI, OpenCode) needs you.",
    )
    .version(version)
    .command(runModule)
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
  ] as unknown as CommandModule[];
}
