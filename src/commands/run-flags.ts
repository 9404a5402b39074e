// The hook command's flags, once, as plain data: hook-argv.ts reads the hook's argv by them (no
// yargs, no zod), cli-yargs.ts feeds them to yargs for `run --help`. Both read values here.
import { CLIENT_IDS, isClient } from "../clients/index.js";
import { configOption } from "./config-option.js";
import type { RunArgs } from "./run.js";

/** One flag: how it is typed on the command line and how --help describes it. */
export interface RunFlag {
  readonly type: "string" | "number" | "boolean";
  readonly describe: string;
  readonly short?: string;
  readonly choices?: readonly string[];
}

/** Every flag of `hook-notify run`, in --help order. */
export const RUN_FLAGS: Readonly<Record<string, RunFlag>> = {
  config: { type: "string", short: configOption.alias, describe: configOption.describe },
  timeout: {
    type: "number",
    describe: "Seconds the client gives this hook entry; the process ends inside it",
  },
  client: {
    type: "string",
    choices: CLIENT_IDS,
    describe: "Which client runs the hook (install writes it)",
  },
  event: {
    type: "string",
    describe: "The event's name, for a client whose payload has none (Copilot CLI)",
  },
  "dry-run": {
    type: "boolean",
    describe: "Print one JSON line per planned delivery; send nothing",
  },
  wait: {
    type: "boolean",
    describe: "Deliver in the foreground and print one result line per sink",
  },
};

// Lenient on purpose: a malformed value in a hook entry is dropped, never stops the notification.
export function toRunArgs(values: Readonly<Record<string, unknown>>, payload?: string): RunArgs {
  const { config, timeout, client, event } = values;
  const seconds = Number(timeout);
  return {
    payload,
    event: typeof event === "string" && event !== "" ? event : undefined,
    config: typeof config === "string" ? config : undefined,
    timeout: Number.isFinite(seconds) && seconds > 0 ? seconds : undefined,
    client: isClient(client) ? client : undefined,
    dryRun: values["dry-run"] === true,
    wait: values["wait"] === true,
  };
}
