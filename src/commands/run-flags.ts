// The hook command's flags, once, as plain data: hookArgs reads them on the hook path (no yargs, no
// zod; cli.ts and the fast path, fast-hook.ts), cli-yargs.ts feeds them to yargs for `run --help`.
import { CLIENT_IDS, isClient } from "../core/hook-event.js";
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

// True for the hook command: no arguments, `run`, flags only, or an event as an argument.
export function isHookInvocation(argv: readonly string[]): boolean {
  const first = argv[0];
  const isEvent = first?.trimStart().startsWith("{") === true;
  return (
    !asksForHelp(argv) &&
    (first === undefined || first === "run" || first.startsWith("-") || isEvent)
  );
}

export function asksForHelp(argv: readonly string[]): boolean {
  return argv.some((a) => ["--help", "-h", "--version", "-v"].includes(a));
}

// Lenient on purpose: an unknown or malformed flag in a hook entry must not stop the notification.
// Read by hand, as node:util's parseArgs would in its non-strict mode (--name value, --name=value,
// -c value, -cvalue, -- ends the flags): loading node:util costs a hook run ~4 M instructions.
export function hookArgs(argv: readonly string[]): RunArgs {
  const values: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  const words = argv.filter((a) => a !== "run");
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word === "--") {
      positionals.push(...words.slice(i + 1));
      break;
    }
    const long = /^--([^=]+)(?:=(.*))?$/s.exec(word);
    const short = long ? undefined : /^-([^-])(.*)$/s.exec(word);
    if (!long && !short) {
      positionals.push(word);
      continue;
    }
    const [name, inline] = long
      ? [long[1] as string, long[2]]
      : [shortName(short?.[1] as string), short?.[2] || undefined];
    const takesValue = RUN_FLAGS[name] !== undefined && RUN_FLAGS[name].type !== "boolean";
    if (inline !== undefined) values[name] = inline;
    else if (takesValue && i + 1 < words.length) values[name] = words[++i] as string;
    else values[name] = true;
  }
  // Codex's `notify` program gets the event as its last argument, not on stdin.
  return toRunArgs(
    values,
    positionals.findLast((word) => word.trimStart().startsWith("{")),
  );
}

function shortName(letter: string): string {
  return Object.entries(RUN_FLAGS).find(([, flag]) => flag.short === letter)?.[0] ?? letter;
}
