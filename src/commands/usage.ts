// `hook-notify usage`: the organisation's analytics (Manager or Owner keys) for people and
// scripts: tokens, tools, activity, productivity, users, and the daily digest on demand.
import type { Argv, CommandModule } from "yargs";
import { configOption } from "./config-option.js";
import { checkTimeout, timeoutOption } from "./service-flags.js";
import { exitWhenDone } from "../exit.js";

interface UsageArgs {
  config?: string | undefined;
  kind?: string;
  from?: string | undefined;
  to?: string | undefined;
  "group-by"?: string | undefined;
  user?: string | undefined;
  week: boolean;
  month: boolean;
  period?: string | undefined;
  breakdown: boolean;
  html?: string | undefined;
  timeout: number;
  json: boolean;
}

export const usageCommand: CommandModule<object, UsageArgs> = {
  command: "usage <kind>",
  describe:
    "The organisation's usage per UTC day, week or month, with charts: tokens, tools, activity, productivity, users; report --html",
  // Cast: yargs' inferred type for these options does not line up with UsageArgs.
  builder: (yargs) =>
    (yargs as Argv<UsageArgs>)
      .positional("kind", {
        choices: ["tokens", "tools", "activity", "productivity", "users", "digest", "report"],
        describe: "What to show",
      })
      .option("config", configOption)
      .option("from", {
        alias: "since",
        type: "string",
        describe: "First day, YYYY-MM-DD (default: --to)",
      })
      .option("to", {
        alias: ["date", "until"],
        type: "string",
        describe: "Last day, YYYY-MM-DD (default: yesterday)",
      })
      .option("week", {
        type: "boolean",
        default: false,
        describe: "The seven days up to --to",
      })
      .option("month", { type: "boolean", default: false, describe: "The thirty days up to --to" })
      .option("period", {
        choices: ["day", "week", "month"],
        describe: "Rows per day (default), ISO week or month, summed (averages averaged)",
      })
      .option("breakdown", { type: "boolean", default: false, describe: "tokens: a row per model" })
      .option("html", { type: "string", describe: "report: the HTML file to write" })
      .option("timeout", timeoutOption)
      .check(checkTimeout)
      .option("group-by", {
        type: "string",
        describe: "tokens: model, tools: tool_name, activity: client",
      })
      .option("user", { type: "string", describe: "users: one user (e-mail or id)" })
      .option("json", { type: "boolean", default: false, describe: "Print JSON for scripts" })
      .example("$0 usage tokens --from 2026-11-01 --to 2026-11-07 --group-by model", "per model")
      .example("$0 usage tokens --week --breakdown", "the last seven days, per model, with a chart")
      .example("$0 usage activity --month --period week", "thirty days, a row per week")
      .example("$0 usage report --html usage.html", "a page with the charts of thirty days")
      .example("$0 usage digest", "yesterday's digest, as watch --digest sends it")
      .example("$0 usage digest --week", "the last seven days, summed")
      .epilog(
        "Analytics needs a Manager or Owner key; data lags one day (UTC) and starts on 2026-01-14. " +
          "Charts use Unicode bars on a terminal, ASCII with NO_COLOR or in a pipe. --json prints " +
          "{data, meta}. Exit 0 with the rows, 2 on a usage mistake, 3 when the service refused, " +
          "1 on any other failure.",
      ) as unknown as Argv<UsageArgs>,
  handler: async (argv) => {
    const [{ runUsage }, { consoleIo }, { createDeps }] = await Promise.all([
      import("./usage-run.js"),
      import("./service-command.js"),
      import("../deps.js"),
    ]);
    const code = await runUsage(consoleIo(createDeps()), {
      configPath: argv.config,
      kind: argv.kind as "tokens",
      from: argv.from,
      to: argv.to,
      groupBy: argv["group-by"],
      user: argv.user,
      week: argv.week,
      month: argv.month,
      period: argv.period as "day" | undefined,
      breakdown: argv.breakdown,
      html: argv.html,
      timeoutSeconds: argv.timeout,
      json: argv.json,
    });
    exitWhenDone(code);
  },
};
