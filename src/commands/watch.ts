// `hook-notify watch`: polls the service and announces what no local hook sees (a hosted session
// going idle, a computer failing to provision, a change of the enterprise controls, yesterday's
// usage) through the configured sinks.
import type { CommandModule } from "yargs";
import { configOption } from "./config-option.js";

interface WatchArgs {
  config?: string | undefined;
  once: boolean;
  digest?: string | undefined;
  interval?: number | undefined;
}

export const watchCommand: CommandModule<object, WatchArgs> = {
  command: "watch",
  describe: "Poll the service and notify about sessions, computers, enterprise controls, usage",
  builder: (yargs) =>
    yargs
      .option("config", configOption)
      .option("once", {
        type: "boolean",
        default: false,
        describe: "Poll once and exit (for cron); exit 1 if a part of the poll failed",
      })
      .option("digest", {
        choices: ["daily"],
        describe: "Also send yesterday's usage (UTC) once a day: credits, users, sessions, …",
      })
      .option("interval", {
        type: "number",
        describe: "Seconds between polls (default: service.intervalSeconds, else 60; +10 % jitter)",
      })
      .example("$0 watch --once --digest daily", "one poll, e.g. from cron every 5 minutes")
      .epilog(
        'Needs "service": {"baseUrl": "https://…", "apiKey": "${FACTORY_API_KEY}"} in the config ' +
          "(baseUrl: the part before /api/v0). The first poll only records what it sees; later " +
          "polls announce changes. State: $XDG_STATE_HOME/hook-notify/watch/. Try it against the " +
          "local fake: node scripts/fake-service.mjs --demo (see the README).",
      ),
  handler: async (argv) => {
    const { runWatch } = await import("./watch-run.js");
    process.exitCode = await runWatch({
      configPath: argv.config,
      once: argv.once,
      digest: argv.digest === "daily",
      intervalSeconds: argv.interval,
    });
  },
};
