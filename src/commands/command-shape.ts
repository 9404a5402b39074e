// What a command accepts, read from yargs after its builder ran (for the one line a usage
// mistake gets, commands/usage-mistake.ts), and the rule that a flag taking a value must get one.
import type { Argv, CommandModule } from "yargs";
import type { CommandShape } from "./usage-mistake.js";

/** The part of yargs' (untyped) getOptions() read here. */
interface ParserOptions {
  key: Record<string, boolean>;
  alias: Record<string, string[]>;
  string: string[];
  number: string[];
  array: string[];
  choices: Record<string, readonly string[]>;
}

// The command's builder, then: every flag that takes one value requires it (`test --sink` with
// no name must not test every sink), and what the command accepts is kept for the mistake line.
export function withShape(
  command: CommandModule,
  typed: readonly string[],
  keep: (shape: CommandShape) => void,
): CommandModule {
  const name = [command.command].flat()[0] ?? "";
  const positionals = [...name.matchAll(/[<[]([\w-]+)(?:\.\.)?[>\]]/g)].map((m) => m[1] ?? "");
  const builder = command.builder;
  return {
    ...command,
    builder: (y: Argv) => {
      const built = (typeof builder === "function" ? builder(y) : y.options(builder ?? {})) as Argv;
      const options = (built as unknown as { getOptions(): ParserOptions }).getOptions();
      const single = [...options.string, ...options.number].filter(
        (key) => !options.array.includes(key) && !positionals.includes(key),
      );
      const flags = single.flatMap((key) => [key, ...(options.alias[key] ?? [])]);
      keep({
        name: name.split(" ")[0],
        flags: [...Object.keys(options.key), ...Object.values(options.alias).flat()],
        positionals,
        choices: options.choices,
      });
      return built.check(() => {
        const missing = flagWithoutValue(typed, flags);
        return missing === undefined || `Not enough arguments following: ${missing}`;
      });
    },
  };
}

// The first flag typed with no value (`--sink` last, `--sink --json`, `--sink=`), as named;
// `-` (stdin) and negative numbers are values.
function flagWithoutValue(typed: readonly string[], flags: readonly string[]): string | undefined {
  for (const [index, word] of typed.entries()) {
    if (word === "--") return undefined;
    const name = word.replace(/^--?/, "");
    if (word.endsWith("=") && flags.includes(name.slice(0, -1))) return name.slice(0, -1);
    if (!word.startsWith("-") || word.includes("=") || !flags.includes(name)) continue;
    const next = typed[index + 1];
    if (next === undefined || (next.startsWith("-") && next !== "-" && !/^-\d/.test(next)))
      return name;
  }
  return undefined;
}
