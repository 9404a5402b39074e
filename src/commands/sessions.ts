// `hook-notify sessions`: the service's cloud sessions from a terminal or a script: list, read,
// start, change settings, read messages, and answer one ("sessions send ID 'ship it'").
import type { Argv, CommandModule } from "yargs";
import { configOption } from "./config-option.js";

interface SessionsArgs {
  config?: string | undefined;
  action?: string;
  id?: string | undefined;
  text?: string | undefined;
  json: boolean;
  all: boolean;
  limit?: number | undefined;
  computer?: string | undefined;
  role?: string | undefined;
  cwd?: string | undefined;
  model?: string | undefined;
  "spec-model"?: string | undefined;
  worktree?: boolean | undefined;
  tag?: string[] | undefined;
  file?: string[] | undefined;
  image?: string[] | undefined;
}

export const sessionsCommand: CommandModule<object, SessionsArgs> = {
  command: "sessions <action> [id] [text]",
  describe: "List, read, start, change and answer the service's cloud sessions",
  // Cast: yargs' inferred type for this many options does not line up with SessionsArgs.
  builder: (yargs) =>
    (yargs as Argv<SessionsArgs>)
      .positional("action", {
        choices: ["list", "get", "create", "update", "messages", "send"],
        describe: "What to do",
      })
      .positional("id", { type: "string", describe: "The session's id (all but list, create)" })
      .positional("text", { type: "string", describe: "send: the message" })
      .option("config", configOption)
      .option("json", { type: "boolean", default: false, describe: "Print JSON for scripts" })
      .option("all", { type: "boolean", default: false, describe: "list, messages: show all" })
      .option("limit", { type: "number", describe: "list, messages: how many newest (20)" })
      .option("computer", { type: "string", describe: "Computer id: filter, create's target" })
      .option("role", { choices: ["user", "assistant", "tool"], describe: "messages: one role" })
      .option("cwd", { type: "string", describe: "create: working directory (1-4096 chars)" })
      .option("model", { type: "string", describe: "create, update: the model" })
      .option("spec-model", { type: "string", describe: "create, update: the spec-mode model" })
      .option("worktree", { type: "boolean", describe: "create, update: run in a worktree" })
      .option("tag", { type: "string", array: true, describe: "create, update: a tag (repeat)" })
      .option("file", { type: "string", array: true, describe: "send: attach a file (repeat)" })
      .option("image", { type: "string", array: true, describe: "send: attach an image (repeat)" })
      .example("$0 sessions list --json", "the 20 last updated sessions as JSON")
      .example('$0 sessions send sess-123 "ship it"', "answer a session")
      .example("$0 sessions messages sess-123 --role assistant --limit 5", "its last answers")
      .epilog(
        'Needs "service" in the config (see hook-notify watch --help). Exit 0 when the service ' +
          "accepted, 1 on any failure (one line on stderr; the API key never shown).",
      ) as unknown as Argv<SessionsArgs>,
  handler: async (argv) => {
    const [{ runSessions }, { consoleIo }, { createDeps }] = await Promise.all([
      import("./sessions-run.js"),
      import("./service-command.js"),
      import("../deps.js"),
    ]);
    process.exitCode = await runSessions(consoleIo(createDeps()), {
      configPath: argv.config,
      action: argv.action as "list",
      id: argv.id,
      text: argv.text,
      json: argv.json,
      all: argv.all,
      limit: argv.limit,
      computer: argv.computer,
      role: argv.role as "assistant" | undefined,
      cwd: argv.cwd,
      settings: settingsOf(argv),
      files: argv.file ?? [],
      images: argv.image ?? [],
    });
  },
};

function settingsOf(argv: SessionsArgs): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries({
      model: argv.model,
      specModeModel: argv["spec-model"],
      runInWorktree: argv.worktree,
      tags: argv.tag?.map((name) => ({ name })),
    }).filter(([, value]) => value !== undefined),
  );
}
