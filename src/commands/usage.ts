// `hook-notify usage`: the organisation's analytics (Manager or Owner keys) for people and
// scripts: tokens, tools, activity, productivity, users, and the daily digest on demand.
import type { Argv, CommandModule } from "yargs";
import { configOption } from "./config-option.js";

interface UsageArgs {
  config?: string | undefined;
  kind?: string;
  from?: string | undefined;
  to?: string | undefined;
  "group-by"?: string | undefined;
  user?: string | undefined;
  week: boolean;
  json: boolean;
}

export const usageCommand: CommandModule<object, UsageArgs> = {
  command: "usage <kind>",
  describe: "The organisation's usage per UTC day: tokens, tools, activity, productivity, users",
  // Cast: yargs' inferred type for these options does not line up with UsageArgs.
  builder: (yargs) =>
    (yargs as Argv<UsageArgs>)
      .positional("kind", {
        choices: ["tokens", "tools", "activity", "productivity", "users", "digest"],
        describe: "What to show",
      })
      .option("config", configOption)
      .option("from", { type: "string", describe: "First day, YYYY-MM-DD (default: --to)" })
      .option("to", {
        alias: "date",
        type: "string",
        describe: "Last day, YYYY-MM-DD (default: yesterday)",
      })
      .option("week", {
        type: "boolean",
        default: false,
        describe: "digest: the seven days up to --to",
      })
      .option("group-by", {
        type: "string",
        describe: "tokens: model, tools: tool_name, activity: client",
      })
      .option("user", { type: "string", describe: "users: one user (e-mail or id)" })
      .option("json", { type: "boolean", default: false, describe: "Print JSON for scripts" })
      .example("$0 usage tokens --from 2026-11-01 --to 2026-11-07 --group-by model", "per model")
      .example("$0 usage digest", "yesterday's digest, as watch --digest sends it")
      .example("$0 usage digest --week", "the last seven days, summed")
      .epilog(
        "Analytics needs a Manager or Owner key; data lags one day (UTC) and starts on 2026-01-14. " +
          "Exit 0 with the rows, 1 on any failure.",
      ) as unknown as Argv<UsageArgs>,
  handler: async (argv) => {
    const [{ runUsage }, { consoleIo }, { createDeps }] = await Promise.all([
      import("./usage-run.js"),
      import("./service-command.js"),
      import("../deps.js"),
    ]);
    process.exitCode = await runUsage(consoleIo(createDeps()), {
      configPath: argv.config,
      kind: argv.kind as "tokens",
      from: argv.from,
      to: argv.to,
      groupBy: argv["group-by"],
      user: argv.user,
      week: argv.week,
      json: argv.json,
    });
  },
};
