// `hook-notify sessions`: the service's cloud sessions from a terminal or a script: list, read,
// start, change settings, read messages, and answer one ("sessions send ID -- 'ship it'").
import type { Argv, CommandModule } from "yargs";
import { closestName } from "../did-you-mean.js";
import { HookNotifyError } from "../errors.js";
import { configOption } from "./config-option.js";
import { checkTimeout, timeoutOption } from "./service-flags.js";
import { exitWhenDone } from "../exit.js";

interface SessionsArgs {
  config?: string | undefined;
  action?: string;
  id?: string | undefined;
  text?: string[] | undefined;
  _: (string | number)[];
  json: boolean;
  all: boolean;
  limit?: number | undefined;
  timeout: number;
  computer?: string | undefined;
  role?: string | undefined;
  cwd?: string | undefined;
  model?: string | undefined;
  "spec-model"?: string | undefined;
  worktree?: boolean | undefined;
  tag?: string[] | undefined;
  "add-tag"?: string[] | undefined;
  "remove-tag"?: string[] | undefined;
  archive?: boolean | undefined;
  "enable-tool"?: string[] | undefined;
  "disable-tool"?: string[] | undefined;
  "compaction-check"?: boolean | undefined;
  setting?: string[] | undefined;
  file?: string[] | undefined;
  image?: string[] | undefined;
  "text-file"?: string | undefined;
}

export const sessionsCommand: CommandModule<object, SessionsArgs> = {
  command: "sessions <action> [id] [text..]",
  describe: "List, read, start, change and answer the service's cloud sessions",
  // Cast: yargs' inferred type for this many options does not line up with SessionsArgs.
  builder: (yargs) =>
    (yargs as Argv<SessionsArgs>)
      // A reply may start with "-" ("-5 degrees", "- first point"): a word that is no option of
      // this command reaches the text, and checkDashWords refuses the ones shaped like a flag.
      .parserConfiguration({ "unknown-options-as-args": true })
      .positional("action", {
        choices: ["list", "get", "create", "update", "messages", "send"],
        describe: "What to do",
      })
      .positional("id", { type: "string", describe: "The session's id (all but list, create)" })
      .positional("text", {
        type: "string",
        array: true,
        describe:
          'send: the message ("-5 degrees" is text; after -- anything is, even --x; - reads stdin)',
      })
      .option("config", configOption)
      .option("json", { type: "boolean", default: false, describe: "Print JSON for scripts" })
      .option("all", {
        type: "boolean",
        default: false,
        describe: "list, messages: show all (messages: hidden ones too, marked)",
      })
      .option("limit", { type: "number", describe: "list, messages: how many newest (20)" })
      .option("timeout", timeoutOption)
      .option("computer", { type: "string", describe: "Computer id: filter, create's target" })
      .option("role", { choices: ["user", "assistant", "tool"], describe: "messages: one role" })
      .option("cwd", { type: "string", describe: "create: working directory (1-4096 chars)" })
      .option("model", { type: "string", describe: "create, update: the model" })
      .option("spec-model", { type: "string", describe: "create, update: the spec-mode model" })
      .option("worktree", { type: "boolean", describe: "create, update: run in a worktree" })
      .option("tag", {
        type: "string",
        array: true,
        describe: 'create, update: the tags, replacing all (NAME or NAME={"json":"metadata"})',
      })
      .option("add-tag", { type: "string", array: true, describe: "update: add a tag (repeat)" })
      .option("remove-tag", {
        type: "string",
        array: true,
        describe: "update: remove a tag by name (repeat)",
      })
      .option("archive", { type: "boolean", describe: "update: archive (--no-archive: restore)" })
      .option("enable-tool", { type: "string", array: true, describe: "create, update: tool id" })
      .option("disable-tool", { type: "string", array: true, describe: "create, update: tool id" })
      .option("compaction-check", {
        type: "boolean",
        describe: "create, update: compactionThresholdCheckEnabled",
      })
      .option("setting", {
        type: "string",
        array: true,
        describe: "create, update: any documented session setting, KEY=JSON (repeat)",
      })
      .option("file", { type: "string", array: true, describe: "send: attach a text or PDF file" })
      .option("image", {
        type: "string",
        array: true,
        describe: "send: attach a PNG/JPEG/GIF/WebP",
      })
      .option("text-file", { type: "string", describe: "send: the message from a file (- stdin)" })
      .check(checkTimeout)
      // Cast: yargs types the second argument as aliases; it passes getOptions() (key, alias).
      .check((argv, options) =>
        checkDashWords(process.argv.slice(2), options as unknown as KnownOptions, argv),
      )
      .example("$0 sessions list --json", "the 20 last updated sessions as JSON")
      .example('$0 sessions send sess-123 -- "ship it"', "answer a session")
      .example("echo 'ship it' | $0 sessions send sess-123 -", "the answer from stdin")
      .example("$0 sessions messages sess-123 --role assistant --limit 5", "its last answers")
      .epilog(
        'Needs "service" in the config (see hook-notify watch --help). Exit 0 when the service ' +
          "accepted, 2 on a usage mistake (nothing sent), 3 when the service refused (4xx), 1 on " +
          "any other failure (one line on stderr; the API key never shown).",
      ) as unknown as Argv<SessionsArgs>,
  handler: async (argv) => {
    const [{ runSessions }, { consoleIo }, { createDeps }] = await Promise.all([
      import("./sessions-run.js"),
      import("./service-command.js"),
      import("../deps.js"),
    ]);
    let settings: Record<string, unknown>;
    try {
      settings = settingsOf(argv);
    } catch (error) {
      console.error(`hook-notify sessions ${String(argv.action)}: ${(error as Error).message}`);
      exitWhenDone(2);
      return;
    }
    const code = await runSessions(consoleIo(createDeps()), {
      configPath: argv.config,
      action: argv.action as "list",
      id: argv.id,
      ...stdinOf(argv),
      json: argv.json,
      all: argv.all,
      limit: argv.limit,
      timeoutSeconds: argv.timeout,
      computer: argv.computer,
      role: argv.role as "assistant" | undefined,
      cwd: argv.cwd,
      settings,
      tagEdits: { add: argv["add-tag"] ?? [], remove: argv["remove-tag"] ?? [] },
      files: argv.file,
      images: argv.image,
    });
    exitWhenDone(code);
  },
};

interface KnownOptions {
  key: Record<string, unknown>;
  alias?: Record<string, string[]>;
}

// A word before "--" shaped like a flag (--jsn, -x) that names no option is a mistyped option,
// not text: refused as a usage mistake, with the way to send it as text. Other words starting
// with "-" ("-5 degrees", "-5", "->") are text. `given` is the command line as typed (yargs
// drops an unknown flag where the id stands).
export function checkDashWords(
  given: readonly string[],
  options: KnownOptions,
  argv: { action?: unknown; id?: unknown },
): true {
  const end = given.indexOf("--");
  const known = new Set(
    [...Object.keys(options.key), ...Object.values(options.alias ?? {}).flat()].flatMap((k) => [
      k,
      `no-${k}`,
    ]),
  );
  const nameOf = (word: string): string => /^-*([^=]*)/.exec(word)?.[1] ?? "";
  const flag = (end < 0 ? given : given.slice(0, end)).find(
    (word) => /^--?[A-Za-z][\w-]*(=\S*)?$/.test(word) && !known.has(nameOf(word)),
  );
  if (flag === undefined) return true;
  const names = Object.keys(options.key).filter((k) => !["action", "id", "text"].includes(k));
  const guess = nameOf(flag).length > 1 ? closestName(nameOf(flag), names) : undefined;
  const id = typeof argv.id === "string" && argv.id ? argv.id : "ID";
  // The same words as yargs' own "unknown option" (usage-mistake.ts adds where and the help).
  const name = flag.split("=")[0] ?? flag;
  throw new HookNotifyError(
    "USAGE",
    `unknown option ${name}.${guess ? ` Did you mean --${guess}?` : ""}` +
      (argv.action === "send"
        ? ` If it is part of the message, put the message after --: hook-notify sessions send ${id} -- "${flag} …".`
        : ""),
  );
}

// A lone "-" before "--" reaches the words (unknown-options-as-args); yargs gives --text-file an
// empty value when "-" follows it. Either way "-" means stdin and is taken out of the words.
function stdinOf(argv: SessionsArgs): {
  words: string[];
  stdinDash: boolean;
  textFile: string | undefined;
} {
  const before = (argv.text ?? []).map(String);
  const dash = before.indexOf("-");
  const words = [...before.filter((_, i) => i !== dash), ...argv._.slice(1).map(String)];
  const textFile = argv["text-file"] === "" && dash >= 0 ? "-" : argv["text-file"] || undefined;
  return { words, stdinDash: dash >= 0 && textFile !== "-", textFile };
}

function settingsOf(argv: SessionsArgs): Record<string, unknown> {
  return {
    ...Object.fromEntries((argv.setting ?? []).map(parseSetting)),
    ...Object.fromEntries(
      Object.entries({
        model: argv.model,
        specModeModel: argv["spec-model"],
        runInWorktree: argv.worktree,
        tags: argv.tag?.map(parseTag),
        archivedAt:
          argv.archive === undefined ? undefined : argv.archive ? new Date().toISOString() : null,
        enabledToolIds: argv["enable-tool"],
        disabledToolIds: argv["disable-tool"],
        compactionThresholdCheckEnabled: argv["compaction-check"],
      }).filter(([, value]) => value !== undefined),
    ),
  };
}

// NAME or NAME={"json": "metadata"}.
export function parseTag(text: string): { name: string; metadata?: Record<string, unknown> } {
  const at = text.indexOf("=");
  if (at < 0) return { name: text };
  const metadata = parseJson(text.slice(at + 1), `--tag ${text.slice(0, at)}`);
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata))
    throw new Error(`--tag ${text.slice(0, at)}=…: the metadata is a JSON object.`);
  return { name: text.slice(0, at), metadata: metadata as Record<string, unknown> };
}

function parseSetting(text: string): [string, unknown] {
  const at = text.indexOf("=");
  if (at < 1)
    throw new Error(`--setting ${text}: give KEY=JSON, e.g. --setting runInWorktree=true`);
  return [text.slice(0, at), parseJson(text.slice(at + 1), `--setting ${text.slice(0, at)}`)];
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`${where}: ${JSON.stringify(text)} is not JSON (a string is "quoted").`);
  }
}
