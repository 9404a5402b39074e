// `hook-notify controls history`: who changed the organisation's enterprise controls, when, and
// what changed (credential-bearing values masked), newest first.
import type { Argv, CommandModule } from "yargs";
import { configOption } from "./config-option.js";
import { checkTimeout, timeoutOption } from "./service-flags.js";
import { exitWhenDone } from "../exit.js";

interface ControlsArgs {
  config?: string | undefined;
  action?: string;
  limit?: number | undefined;
  timeout?: number | undefined;
  json: boolean;
}

export const controlsCommand: CommandModule<object, ControlsArgs> = {
  command: "controls <action>",
  describe: "The history of the organisation's enterprise controls, newest first",
  builder: (yargs) =>
    (yargs as Argv<ControlsArgs>)
      .positional("action", { choices: ["history"], describe: "history" })
      .option("config", configOption)
      .option("limit", { type: "number", describe: "Revisions to show, 1-100 (default 10)" })
      .option("json", { type: "boolean", default: false, describe: "Print JSON for scripts" })
      .option("timeout", timeoutOption)
      .check(checkTimeout)
      .example("$0 controls history --limit 3", "the last three changes and their diffs")
      .epilog(
        "Settings are shown as a diff against the revision before, with keys masked. With " +
          "--json the revisions are printed as the service sends them, credentials masked too.",
      ) as unknown as Argv<ControlsArgs>,
  handler: async (argv) => {
    const [{ runControls }, { consoleIo }, { createDeps }] = await Promise.all([
      import("./controls-run.js"),
      import("./service-command.js"),
      import("../deps.js"),
    ]);
    const code = await runControls(consoleIo(createDeps()), {
      configPath: argv.config,
      limit: argv.limit ?? 10,
      timeoutSeconds: argv.timeout,
      json: argv.json,
    });
    exitWhenDone(code);
  },
};
