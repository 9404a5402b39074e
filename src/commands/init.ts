// `hook-notify init`: writes a starter config with "$schema" and ${ENV_VAR} references for secrets.
import type { CommandModule } from "yargs";
import { SINK_CHOICES } from "../init/starter-config.js";
import type * as Ask from "../init/ask.js";
import { exitWhenDone } from "../exit.js";

interface InitArgs {
  sinks: string | undefined;
  force: boolean;
  path: string | undefined;
}

// Asks on a terminal unless --sinks is given; never prompts unattended; never overwrites unasked.
export const initCommand: CommandModule<object, InitArgs> = {
  command: "init",
  describe: "Write a starter config file (secrets as ${ENV_VAR} references)",
  builder: (yargs) =>
    yargs
      .option("sinks", {
        type: "string",
        // From the sink registry: every choice --sinks accepts.
        describe: `Comma-separated, from: ${SINK_CHOICES.join(", ")} (no questions asked)`,
      })
      .option("force", {
        type: "boolean",
        default: false,
        describe: "Replace an existing config file",
      })
      .option("path", {
        type: "string",
        describe: "Where to write (default: $XDG_CONFIG_HOME/hook-notify/config.json)",
      })
      .example("$0 init", "answer a few questions on the terminal")
      .example(
        "$0 init --sinks desktop,sound,slack",
        "unattended; Slack's URL from $SLACK_WEBHOOK_URL",
      )
      .example("$0 init --sinks ntfy --force", "replace the existing file"),
  handler: async (argv) => {
    const [{ homedir }, { userConfigPath }, { writeStarter }, { createStyle }, { selfCommand }] =
      await Promise.all([
        import("node:os"),
        import("../config/paths.js"),
        import("../init/write-starter.js"),
        import("../style.js"),
        import("../settings/self-command.js"),
      ]);
    const script = process.argv[1];
    const self =
      script === undefined
        ? undefined
        : selfCommand({
            env: process.env,
            platform: process.platform,
            scriptPath: script,
            cwd: process.cwd(),
          });
    // Not createDeps(): its stdin source opens a terminal's stdin, and the process would not end.
    const deps = { env: process.env, platform: process.platform, homedir: homedir() };
    const style = createStyle(process.stdout, deps.env);
    const isInteractive = argv.sinks === undefined && process.stdin.isTTY && process.stdout.isTTY;
    const file = argv.path ?? userConfigPath(deps);
    const code = await writeStarter({
      file,
      sinkList: argv.sinks,
      force: argv.force,
      ask: isInteractive
        ? () => onTerminal(async (ask, context) => ask.askStarter(context, await starterOffer()))
        : undefined,
      out: (text) => process.stdout.write(text),
      err: (line) => {
        console.error(line);
      },
      style,
      ...(self === undefined ? {} : { self }),
    });
    if (code !== 0) exitWhenDone(code);
    else if (isInteractive && (await onTerminal((ask, context) => ask.askToTest(context))))
      await sendTest(file);
  },
};

// init's questions on the real terminal (init/ask.ts, its own bundle), drawn past the output guard.
async function onTerminal<T>(
  work: (ask: typeof Ask, context: Ask.PromptContext) => Promise<T>,
): Promise<T> {
  const [ask, { terminalOutput }] = await Promise.all([
    import("../init/ask.js"),
    import("./terminal-prompt.js"),
  ]);
  const opened: (() => void)[] = [];
  const context = () => {
    const { output, close } = terminalOutput();
    opened.push(close);
    return { input: process.stdin, output };
  };
  try {
    return await work(ask, context);
  } finally {
    for (const close of opened) close();
  }
}

// What init offers on the terminal: the registry's sinks, defaults and secret variables.
async function starterOffer(): Promise<Ask.StarterOffer> {
  const starter = await import("../init/starter-config.js");
  return {
    choices: starter.SINK_CHOICES,
    defaults: starter.DEFAULT_CHOICES,
    secrets: starter.SECRET_VARS,
    smtp: starter.DEFAULT_SMTP,
  };
}

// The answer yes to "Send a test notification now?": `hook-notify test` on the new file.
async function sendTest(file: string): Promise<void> {
  const { testCommand } = await import("./test.js");
  const args = { event: "Stop" as const, failure: false, json: false, away: false, approve: false };
  await testCommand.handler({ ...args, sink: undefined, config: file, _: [], $0: "hook-notify" });
}
