// `hook-notify watch`: polls the service and announces what no local hook sees (a hosted session
// going idle, a computer failing to provision, a change of the enterprise controls, yesterday's
// usage) through the configured sinks.
import type { CommandModule } from "yargs";
import { MAX_INTERVAL_SECONDS } from "../service/watch/schedule.js";
import { configOption } from "./config-option.js";
import { exitWhenDone } from "../exit.js";

/** The shortest interval between polls (the config's intervalSeconds has the same floor). */
const MIN_INTERVAL_SECONDS = 10;

interface WatchArgs {
  config?: string | undefined;
  once: boolean;
  digest?: string | undefined;
  interval?: number | undefined;
  computer?: string[] | undefined;
  host?: string | undefined;
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
        describe:
          "Seconds between polls, 10 to 86400 (default: service.intervalSeconds, else 60; +10 % jitter)",
      })
      .option("computer", {
        type: "string",
        array: true,
        describe: "Only sessions on this computer (repeat); colleagues' sessions stay quiet",
      })
      .option("host", {
        type: "string",
        describe: "Only sessions on the computers of this host id (UUID)",
      })
      .check((argv) => {
        const interval = argv.interval;
        if (
          interval !== undefined &&
          !(interval >= MIN_INTERVAL_SECONDS && interval <= MAX_INTERVAL_SECONDS)
        )
          throw new Error(
            `--interval ${Number.isNaN(interval) ? "is not a number" : String(interval)}: give the seconds between polls, from ${String(MIN_INTERVAL_SECONDS)} to ${String(MAX_INTERVAL_SECONDS)} (a day).`,
          );
        return true;
      })
      .example("$0 watch --once --digest daily", "one poll, e.g. from cron every 5 minutes")
      .epilog(
        'Needs "service": {"baseUrl": "https://…", "apiKey": "${FACTORY_API_KEY}"} in the config ' +
          "(baseUrl: the part before /api/v0). The first poll only records what it sees; later " +
          "polls announce changes. State: $XDG_STATE_HOME/hook-notify/watch/. To try it without " +
          "the service: in a clone of hook-notify's repository (the installed package has no " +
          "scripts/), node scripts/fake-service.mjs --demo runs a local fake (docs/service.md, " +
          '"A local fake of the service").',
      ),
  handler: async (argv) => {
    const { runWatch } = await import("./watch-run.js");
    const code = await runWatch({
      configPath: argv.config,
      once: argv.once,
      digest: argv.digest === "daily",
      intervalSeconds: argv.interval,
      computerIds: argv.computer ?? [],
      hostId: argv.host,
    });
    exitWhenDone(code);
  },
};
