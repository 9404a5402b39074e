// `hook-notify test`: sends a sample notification through every configured sink now and prints
// what happened to each, with the likely fix for a failure. Exit 1 when any sink failed.
import type { CommandModule } from "yargs";
import type { TestEvent, TestResult, TestRow } from "./test-run.js";
import { configOption } from "./config-option.js";
import { TEST_EVENTS } from "../core/hook-event.js";
import { closestName } from "../did-you-mean.js";
import { EXIT } from "./exit-codes.js";
import { exitWhenDone } from "../exit.js";

interface TestArgs {
  sink: string | undefined;
  event: TestEvent;
  failure: boolean;
  json: boolean;
  away: boolean;
  config: string | undefined;
  approve: boolean;
}

// Registered in cli-yargs.ts; the pipeline and the sinks load only when the command runs.
export const testCommand: CommandModule<object, TestArgs> = {
  command: "test",
  describe: "Send a sample notification to each configured sink now and show the results",
  builder: (yargs) =>
    yargs
      .option("sink", { type: "string", describe: "Only this sink (its name in the config)" })
      .option("event", {
        choices: TEST_EVENTS,
        default: "Stop" as const,
        describe: "Which kind of sample event to send",
      })
      .option("failure", {
        type: "boolean",
        default: false,
        describe: "Send the failure variant (Stop: StopFailure; SessionEnd: reason error)",
      })
      .option("away", {
        type: "boolean",
        default: false,
        describe:
          'Take the away path: "when": "away" sinks send without asking the presence probes, and escalations queue their follow-ups (after afterSeconds; cancelled by no prompt, since the sample session gets none)',
      })
      .option("json", { type: "boolean", default: false, describe: "One JSON object per sink" })
      .option("approve", {
        type: "boolean",
        default: false,
        describe:
          "Send a sample permission request to the phone (ntfy Allow/Deny) and print the verified answer",
      })
      .option("config", configOption)
      .example("$0 test", "send a sample Stop notification through every sink")
      .example("$0 test --sink team", "only the sink named team")
      .example("$0 test --event SessionEnd --failure", "what a failed session looks like")
      .example("$0 test --json | jq .", "one JSON object per sink")
      .example(
        "$0 test --away --event Notification",
        "as if you were away: away-only sinks too, and the escalation follow-up after its window",
      )
      .example("$0 test --approve", "answer a sample permission request on your phone"),
  handler: async (args) => {
    if (args.approve) {
      const { runApproveTest } = await import("./test-approve.js");
      exitWhenDone(await runApproveTest(args.config));
      return;
    }
    if (args.failure && args.event !== "Stop" && args.event !== "SessionEnd") {
      console.error(
        `hook-notify: --failure goes with --event Stop or SessionEnd, not ${args.event}.`,
      );
      exitWhenDone(EXIT.usage);
      return;
    }
    const [{ createDeps }, { runTest }, { createStyle }] = await Promise.all([
      import("../deps.js"),
      import("./test-run.js"),
      import("../style.js"),
    ]);
    const deps = createDeps();
    // A sink that takes its time (a slow or hung server) gets a line after a second, not silence;
    // on a terminal only (a script reads the results, not the wait).
    const progress = process.stderr.isTTY
      ? setTimeout(() => {
          console.error("hook-notify: sending… (waiting for the sinks to answer, at most 60 s)");
        }, 1000)
      : undefined;
    const result = await runTest(deps, {
      event: args.event,
      failure: args.failure,
      sink: args.sink,
      configPath: args.config,
      away: args.away,
    }).finally(() => {
      clearTimeout(progress);
    });
    const problems = reportConfig(result);
    // A sink name the config lacks is a usage mistake (2), unless the config itself is broken (1).
    if (result.config.error) {
      exitWhenDone(EXIT.failure);
      return;
    }
    if (result.unknownSink !== undefined) {
      exitWhenDone(EXIT.usage);
      return;
    }
    const { printJson, printTable, toReport, unsetReport } = await import("./test-report.js");
    const reports = [...result.rows.map(toReport), ...result.unset.map(unsetReport)];
    if (args.json) printJson(reports);
    else printTable(reports, createStyle(process.stdout, deps.env));
    const failed = result.rows.some((row: TestRow) => row.outcome && !row.outcome.ok);
    exitWhenDone(problems || failed ? 1 : 0);
  },
};

// Config trouble goes to stderr, one line each; true when the test cannot pass.
function reportConfig(result: TestResult): boolean {
  const { config, unknownSink } = result;
  if (config.error) console.error(`hook-notify: ${config.error.message}`);
  // An unset ${VAR} is one of these lines (with its fix); its sink's row says "left out".
  for (const issue of config.issues) console.error(`hook-notify: ${issue}`);
  if (unknownSink !== undefined) {
    const names = Object.keys(config.value.sinks);
    const where = config.path ?? "the built-in default";
    const guess = closestName(unknownSink, names);
    const hint = guess === undefined ? "" : ` Did you mean "${guess}"?`;
    console.error(
      `hook-notify: no sink named "${unknownSink}" in ${where}; configured: ${names.join(", ") || "none"}.${hint}`,
    );
  }
  return config.error !== undefined || config.issues.length > 0 || unknownSink !== undefined;
}
