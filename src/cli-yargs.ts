import type { Argv, CommandModule } from "yargs";
import { version } from "./version.js";
import { clientNames } from "./clients/index.js";
import { RUN_FLAGS, toRunArgs } from "./commands/run-flags.js";
import { EXIT, EXIT_CODES_HELP, exitQuietly, isInterrupt } from "./commands/exit-codes.js";
import { HookNotifyError } from "./errors.js";
import { COMMAND_NAMES, commandAfterGlobals } from "./commands/hook-argv.js";
import type { CommandShape } from "./commands/usage-mistake.js";
import { withShape } from "./commands/command-shape.js";
import type { CommandLine } from "./commands/top-help.js";
import { exitNow, exitWhenDone } from "./exit.js";
import { ranAs } from "./commands/ran-kind.js";

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
      .group(["client", "event", "timeout"], "Written by install into each hook entry:")
      .example("cat event.json | $0 --dry-run", "show what would be sent")
      .example("cat event.json | $0 --wait", "send now and print the results")
      .example("$0 --client droid --timeout 10", "what an installed hook entry runs"),
  // The run pipeline loads only when `run` runs: not for --help, log, doctor or a usage error.
  handler: async (args) => {
    const { runCommand } = await import("./commands/run.js");
    await runCommand(toRunArgs(args));
  },
};

// `hook-notify approve` without yargs (cli.ts): the approve code travels in this bundle, not the hook's.
export async function runApprove(argv: string[]): Promise<void> {
  const { parseApproveArgs, runApproveCommand } = await import("./commands/approve.js");
  await runApproveCommand(parseApproveArgs(argv));
}

/** Where a usage mistake goes: cli-yargs prints it and exits 2; tests collect it. */
export type OnUsageMistake = (line: string) => void;

// Every command but the hook path: yargs and the command modules load only here.
export async function runYargs(given: string[]): Promise<void> {
  exitQuietly();
  const { unknownCommandMessage } = await import("./did-you-mean.js");
  const argv = helpAsFlag(given);
  if (argv === undefined) {
    ranAs("help");
    process.stdout.write(EXIT_CODES_HELP);
    return;
  }
  const unknown = unknownCommandMessage(argv[0], COMMAND_NAMES);
  if (unknown !== undefined) {
    // Exit 1, never 2 (usage): an unknown command word may be a hand-written hook line in a
    // client's settings (`hook-notify notfy`), and a hook client reads 2 as "block".
    console.error(unknown);
    exitWhenDone(EXIT.failure);
    return;
  }
  applyColorFlag(argv);
  const help = argv.some((word) => word === "--help" || word === "-h");
  const word = commandOf(argv);
  // What this run compiles, for the commands bundle's code cache; a usage mistake clears it.
  ranAs(help ? "help" : (word ?? "top"));
  // A command typed: only its module loads (its parse, help and mistakes are the same alone).
  const commands = await loadCommands(word);
  if (word === undefined && help) {
    const { renderTopHelp } = await import("./commands/top-help.js");
    process.stdout.write(renderTopHelp(helpLines(commands), PITCH, helpWidth()));
    return;
  }
  const parser = await createParser(argv, commands, (line) => {
    ranAs(undefined);
    console.error(line);
    exitNow(EXIT.usage);
  });
  await parser.parseAsync();
}

const PITCH = `Tells you when your coding agent (${clientNames(",")}) needs you, has finished or has failed.`;

// `help <command>` is `<command> --help`, also after global options (`--no-color help log`);
// undefined for `help exit-codes`, which has its own page.
function helpAsFlag(given: readonly string[]): string[] | undefined {
  const at = Math.max(0, commandAfterGlobals(given));
  if (given[at] !== "help") return [...given];
  if (given[at + 1] === "exit-codes") return undefined;
  return [...given.slice(0, at), ...given.slice(at + 1), "--help"];
}

// The command word of a command line (after global options), or undefined for none.
function commandOf(argv: readonly string[]): string | undefined {
  const word = argv[Math.max(0, commandAfterGlobals(argv))];
  return word === "run" || (word !== undefined && COMMAND_NAMES.includes(word)) ? word : undefined;
}

function helpWidth(): number {
  return Math.min(100, process.stdout.columns || 100);
}

// The parser with every command; a usage mistake goes to `onMistake` as one line (exported for
// test/commands/help.test.ts, which walks every command's help and mistakes in-process).
export async function createParser(
  argv: readonly string[],
  commands: readonly CommandModule[],
  onMistake: OnUsageMistake,
): Promise<Argv> {
  const [{ default: yargs }, { describeUsageMistake }] = await Promise.all([
    import("yargs"),
    import("./commands/usage-mistake.js"),
  ]);
  let shape: CommandShape = { name: undefined, flags: [], positionals: [], choices: {} };
  const parser: Argv = yargs([...argv])
    .scriptName("hook-notify")
    .usage(`$0 [command]\n\n${PITCH}`)
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
    .wrap(helpWidth())
    .fail((message: string | undefined, error: Error | undefined) => {
      if (isInterrupt(error)) exitNow(EXIT.interrupted);
      // yargs' own complaints (unknown flag, bad value) and a command's USAGE throw are usage
      // mistakes: one line naming the fix, exit 2 (a named command: the hook and approve never
      // come here). Any other throw is a failure.
      const usage = !(error instanceof Error) || error.name === "YError" || isUsageError(error);
      const text = message ?? error?.message ?? "usage error";
      if (usage) onMistake(describeUsageMistake(text, argv, shape));
      else {
        console.error(`hook-notify: ${text}`);
        exitNow(EXIT.failure);
      }
    });
  for (const command of commands)
    parser.command(
      withShape(command, argv, (built) => {
        shape = built;
      }),
    );
  return parser;
}

// What the grouped help shows of each command: its command line and description.
function helpLines(commands: readonly CommandModule[]): CommandLine[] {
  return [runModule, ...commands].map((command) => ({
    command: ([command.command].flat()[0] ?? "").replace("$0", "run"),
    describe: typeof command.describe === "string" ? command.describe : "",
  }));
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

// Every command module but the hook's (run), in registration order, each loaded when asked for.
const COMMANDS: readonly (readonly [string, () => Promise<unknown>])[] = [
  ["install", async () => (await import("./commands/install.js")).installCommand],
  ["uninstall", async () => (await import("./commands/uninstall.js")).uninstallCommand],
  ["flush", async () => (await import("./commands/flush.js")).flushCommand],
  ["test", async () => (await import("./commands/test.js")).testCommand],
  ["log", async () => (await import("./commands/log.js")).logCommand],
  ["doctor", async () => (await import("./commands/doctor.js")).doctorCommand],
  ["init", async () => (await import("./commands/init.js")).initCommand],
  ["watch", async () => (await import("./commands/watch.js")).watchCommand],
  ["computers", async () => (await import("./commands/computers.js")).computersCommand],
  ["approve", async () => (await import("./commands/approve.js")).approveCommand],
  ["sessions", async () => (await import("./commands/sessions.js")).sessionsCommand],
  ["usage", async () => (await import("./commands/usage.js")).usageCommand],
  ["controls", async () => (await import("./commands/controls.js")).controlsCommand],
  ["mcp", async () => (await import("./commands/mcp.js")).mcpCommand],
  ["completion", async () => (await import("./commands/completion.js")).completionCommand],
];

// The modules of the commands (`only`: that one command's, none for `run`; every one when
// `only` is undefined: the grouped help, completions).
export async function loadCommands(only?: string): Promise<CommandModule[]> {
  const wanted = COMMANDS.filter(([name]) => only === undefined || name === only);
  return (await Promise.all(wanted.map(([, load]) => load()))) as CommandModule[];
}
