// `hook-notify flush`: delivers what waits in the outbox now, in the foreground, with a summary.
import type { CommandModule } from "yargs";
import type { FlushArgs } from "./flush-drain.js";

// Prints one line per delivery and a summary; exit code 1 when something failed or is left.
export const flushCommand: CommandModule<object, FlushArgs> = {
  command: "flush",
  describe: "Deliver the notifications waiting in the outbox now",
  builder: (yargs) =>
    yargs
      .option("retry-failed", {
        type: "boolean",
        default: false,
        describe: "Also retry deliveries that were given up (failed/)",
      })
      .option("max-age-hours", {
        type: "number",
        describe: "Give up on deliveries older than this (default 24)",
      })
      .option("json", {
        type: "boolean",
        default: false,
        describe: "Print the result as one JSON object when flush ends",
      })
      .example("$0 flush", "send what waits now, after a time offline")
      .example("$0 flush --retry-failed", "also try again what was given up")
      .example("$0 flush --json", "the result as one JSON object, for scripts"),
  handler: async (argv) => {
    const { runFlush } = await import("./flush-run.js");
    await runFlush(argv);
  },
};
