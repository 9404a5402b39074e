// `hook-notify computers list` and `hook-notify computers retry <id>`: the computers of the
// organisation, and another try of the install-dependencies step of one that failed (what a
// ComputerError notification offers).
import type { Argv, CommandModule } from "yargs";
import { configOption } from "./config-option.js";

interface ComputersArgs {
  config?: string | undefined;
  id?: string | undefined;
}

export const computersCommand: CommandModule<object, ComputersArgs> = {
  command: "computers <action> [id]",
  describe: "List the service's computers, or retry one's install-dependencies step",
  builder: (yargs) =>
    (yargs as Argv<ComputersArgs>)
      .positional("action", { choices: ["list", "retry"], describe: "list, or retry <id>" })
      .positional("id", { type: "string", describe: "The computer's id (retry)" })
      .option("config", configOption)
      .example("$0 computers retry comp-123", "POST …/computers/comp-123/install-deps")
      .epilog('Needs "service" in the config (see hook-notify watch --help).'),
  handler: async (argv) => {
    const { runComputers } = await import("./computers-run.js");
    const action = (argv as { action?: string }).action === "retry" ? "retry" : "list";
    process.exitCode = await runComputers({ configPath: argv.config, action, id: argv.id });
  },
};
