// `hook-notify computers`: the organisation's computers (all, or one host's), a new one, a change
// of name, host or remote user, and another try of the install-dependencies step of one that
// failed (what a ComputerError notification offers).
import type { Argv, CommandModule } from "yargs";
import { configOption } from "./config-option.js";
import { checkTimeout, timeoutOption } from "./service-flags.js";
import { exitWhenDone } from "../exit.js";

interface ComputersArgs {
  config?: string | undefined;
  action?: string;
  id?: string | undefined;
  json: boolean;
  host?: string | undefined;
  name?: string | undefined;
  provider?: string | undefined;
  "remote-user"?: string | undefined;
  repo?: string[] | undefined;
  "auto-install-deps"?: boolean | undefined;
  "service-account"?: string | undefined;
  source?: string | undefined;
  timeout: number;
}

export const computersCommand: CommandModule<object, ComputersArgs> = {
  command: "computers <action> [id]",
  describe: "List, create or change the service's computers, or retry one's install-dependencies",
  // Cast: yargs' inferred type for this many options does not line up with ComputersArgs.
  builder: (yargs) =>
    (yargs as Argv<ComputersArgs>)
      .positional("action", {
        choices: ["list", "create", "update", "retry"],
        describe: "list, create --name N, update <id>, retry <id>",
      })
      .positional("id", { type: "string", describe: "The computer's id (update, retry)" })
      .option("config", configOption)
      .option("json", { type: "boolean", default: false, describe: "Print JSON for scripts" })
      .option("host", { type: "string", describe: "A host id (UUID): list's filter, or set it" })
      .option("name", { type: "string", describe: "create, update: name (1-63 chars)" })
      .option("provider", { choices: ["byom", "hosted"], describe: "create: who runs it" })
      .option("remote-user", { type: "string", describe: "create, update: user (1-63 chars)" })
      .option("repo", { type: "string", array: true, describe: "create: a repo URL (max 20)" })
      .option("auto-install-deps", { type: "boolean", describe: "create: install dependencies" })
      .option("service-account", { type: "string", describe: "create: service account id" })
      .option("source", { choices: ["scratch"], describe: "create: start from scratch" })
      .option("timeout", timeoutOption)
      .check(checkTimeout)
      .example("$0 computers retry comp-123", "POST …/computers/comp-123/install-deps")
      .example("$0 computers create --name build --repo https://git.example/app", "a new one")
      .epilog(
        'Needs "service" in the config (see hook-notify watch --help). Exit 0 when the service ' +
          "accepted, 2 on a usage mistake (nothing sent), 3 when the service refused (4xx), 1 on any " +
          "other failure.",
      ) as unknown as Argv<ComputersArgs>,
  handler: async (argv) => {
    const [{ runComputers }, { consoleIo }, { createDeps }] = await Promise.all([
      import("./computers-run.js"),
      import("./service-command.js"),
      import("../deps.js"),
    ]);
    const code = await runComputers(consoleIo(createDeps()), {
      configPath: argv.config,
      action: argv.action as "list",
      id: argv.id,
      json: argv.json,
      host: argv.host,
      timeoutSeconds: argv.timeout,
      fields: {
        name: argv.name,
        provider: argv.provider as "hosted" | undefined,
        remoteUser: argv["remote-user"],
        repos: argv.repo,
        autoInstallDeps: argv["auto-install-deps"],
        serviceAccountId: argv["service-account"],
        source: argv.source ? { kind: argv.source } : undefined,
      },
    });
    exitWhenDone(code);
  },
};
