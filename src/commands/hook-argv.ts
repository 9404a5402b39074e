// The hook command's argv read as node:util's parseArgs reads it with `strict: false` and
// `allowPositionals`: the same values and positionals (test/commands/hook-argv.test.ts compares
// the two on fuzzed command lines). Loading and compiling parseArgs cost every hook run ~6 M
// instructions; this is the part of it the hook uses.
import { RUN_FLAGS, toRunArgs } from "./run-flags.js";
import type { RunArgs } from "./run.js";

/** What parseArgs returns: each flag's value (true for a flag given without one), positionals. */
export interface HookArgv {
  values: Record<string, string | boolean>;
  positionals: string[];
}

// Lenient like parseArgs without strict: unknown flags are kept, nothing is an error.
export function parseHookArgv(args: readonly string[]): HookArgv {
  const values = Object.create(null) as Record<string, string | boolean>;
  const positionals: string[] = [];
  const rest = [...args];
  const store = (name: string, value: string | undefined): void => {
    if (name !== "__proto__") values[name] = value ?? true;
  };
  for (let arg = rest.shift(); arg !== undefined; arg = rest.shift()) {
    if (arg === "--") {
      positionals.push(...rest);
      break;
    }
    if (arg.length >= 2 && arg[0] === "-" && arg[1] !== "-") {
      const name = longName(arg.charAt(1));
      // -c FILE, -cFILE (the value in the same word), or a group of flags: -abc is -a -b -c.
      if (arg.length === 2) store(name, takesValue(name) ? rest.shift() : undefined);
      else if (takesValue(name)) store(name, arg.slice(2));
      else rest.unshift(...expandGroup(arg));
    } else if (arg.length > 2 && arg.startsWith("--")) {
      if (!arg.includes("=", 3)) {
        const name = arg.slice(2);
        store(name, takesValue(name) ? rest.shift() : undefined);
      } else {
        const equals = arg.indexOf("=");
        store(arg.slice(2, equals), arg.slice(equals + 1));
      }
    } else positionals.push(arg);
  }
  return { values, positionals };
}

// -abFILE → -a -bFILE when b takes a value: a value ends the group.
function expandGroup(arg: string): string[] {
  const expanded: string[] = [];
  for (let i = 1; i < arg.length; i++) {
    if (!takesValue(longName(arg.charAt(i))) || i === arg.length - 1) {
      expanded.push(`-${arg.charAt(i)}`);
    } else {
      expanded.push(`-${arg.slice(i)}`);
      break;
    }
  }
  return expanded;
}

function longName(short: string): string {
  const found = Object.entries(RUN_FLAGS).find(([, flag]) => flag.short === short);
  return found?.[0] ?? short;
}

// Every flag but a boolean takes a value (parseArgs reads numbers as strings).
function takesValue(name: string): boolean {
  return Object.hasOwn(RUN_FLAGS, name) && RUN_FLAGS[name]?.type !== "boolean";
}

/** The commands besides the hook's own (cli-yargs.ts registers them; test/commands/hook-argv.test.ts
 * checks every registered module is here), and `help <command>`. */
export const COMMAND_NAMES: readonly string[] = [
  "install",
  "uninstall",
  "flush",
  "test",
  "log",
  "doctor",
  "init",
  "watch",
  "computers",
  "approve",
  "sessions",
  "usage",
  "controls",
  "mcp",
  "help",
  "completion",
];

// True for the hook command: no arguments, `run`, flags only, or an event as an argument. Global
// options before a command (`--config x doctor`, `-c x test`, `--no-color log`) still mean it.
export function isHookInvocation(argv: readonly string[]): boolean {
  const first = argv[0];
  const isEvent = first?.trimStart().startsWith("{") === true;
  return (
    !asksForHelp(argv) &&
    !argv.includes("--get-yargs-completions") &&
    commandAfterGlobals(argv) < 0 &&
    (first === undefined || first === "run" || first.startsWith("-") || isEvent)
  );
}

// Where the command word stands after leading global options only, or -1: any other flag first
// keeps the hook reading (a hook entry's own flags never turn it into a command).
export function commandAfterGlobals(argv: readonly string[]): number {
  let index = 0;
  for (;;) {
    const word = argv[index];
    if (word === "--config" || word === "-c") index += 2;
    else if (word !== undefined && isGlobalWord(word)) index += 1;
    else break;
  }
  const word = argv[index];
  return index > 0 && word !== undefined && COMMAND_NAMES.includes(word) ? index : -1;
}

// --config=<file>, -c<file>, --color, --no-color: what /^(--config=|-c.|--(no-)?color$)/ matches,
// without a regular expression, which V8 would compile on every hook run (~0.09 M instructions).
function isGlobalWord(word: string): boolean {
  if (word.startsWith("--config=") || word === "--color" || word === "--no-color") return true;
  // `.` is any character but a line terminator.
  return word.startsWith("-c") && word.length > 2 && !"\n\r\u2028\u2029".includes(word.charAt(2));
}

export function asksForHelp(argv: readonly string[]): boolean {
  return argv.some((a) => ["--help", "-h", "--version", "-v", "-V"].includes(a));
}

/** Flags the hook reads besides its own (RUN_FLAGS): the global colour switches. */
const GLOBAL_FLAGS: readonly string[] = ["color", "no-color"];

// The flags of a hook command line that the hook does not know, as written (`--dry-rn`, `-x`):
// the hook refuses to run with one (a typo must never send for real) and reads no stdin.
function unknownFlags(values: Readonly<Record<string, string | boolean>>): string[] {
  return Object.keys(values)
    .filter((name) => !Object.hasOwn(RUN_FLAGS, name) && !GLOBAL_FLAGS.includes(name))
    .map((name) => (name.length === 1 ? `-${name}` : `--${name}`));
}

// Lenient on values: a malformed value in a hook entry must not stop the notification. An unknown
// flag name is kept in `unknownFlags`: runCommand refuses it (exit 1, never 2) before reading stdin.
// cli.ts and the fast path (fast-hook.ts) read the hook's argv here.
export function hookArgs(argv: readonly string[]): RunArgs & { unknownFlags: string[] } {
  const { values, positionals } = parseHookArgv(argv.filter((a) => a !== "run"));
  // Codex's `notify` program gets the event as its last argument, not on stdin.
  const payload = positionals.findLast((word) => word.trimStart().startsWith("{"));
  return { ...toRunArgs(values, payload), unknownFlags: unknownFlags(values) };
}
