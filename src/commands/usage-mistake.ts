// yargs' complaints (`Unknown argument: bogus`, `Invalid values: …`, `Not enough non-option
// arguments: got 0, need at least 1`) as one line a person can act on: what was wrong, the likely
// meaning, where to look. Pure: cli-yargs.ts gives it the words typed and the command's options.
import { closestName } from "../did-you-mean.js";

/** What the command that failed accepts, read from yargs after its builder ran. */
export interface CommandShape {
  /** `install`, or undefined for the top level. */
  readonly name: string | undefined;
  /** Its flag names, long and short (`tail`, `n`). */
  readonly flags: readonly string[];
  /** Its positionals in order (`action`, `id`). */
  readonly positionals: readonly string[];
  /** The choices of each option or positional that has some. */
  readonly choices: Readonly<Record<string, readonly unknown[]>>;
}

// One line: `hook-notify install: unknown option --bogus. Did you mean --yes? See …`.
export function describeUsageMistake(
  message: string,
  typed: readonly string[],
  shape: CommandShape,
): string {
  const where = shape.name === undefined ? "hook-notify" : `hook-notify ${shape.name}`;
  const what = explain(message, typed, shape) ?? oneLine(message);
  return `${where}: ${what} See "${where} --help".`;
}

function explain(message: string, typed: readonly string[], shape: CommandShape) {
  const unknown = /^Unknown arguments?: (.+)$/s.exec(message);
  if (unknown?.[1] !== undefined) return unknownWord(unknown[1].split(", "), typed, shape);
  const invalid = /Argument: (\S+), Given: (.+?), Choices: (.+)$/m.exec(message);
  if (invalid?.[1] !== undefined && invalid[2] !== undefined && invalid[3] !== undefined)
    return badChoice(invalid[1], invalid[2], shape.choices[invalid[1]] ?? [], shape);
  if (/^Not enough non-option arguments/.test(message)) return missingPositional(shape);
  if (/^Too many non-option arguments/.test(message))
    return "too many words after the command (quote a text that has spaces).";
  const following = /^Not enough arguments following: (\S+)$/.exec(message);
  if (following?.[1] !== undefined) return `${flag(following[1])} needs a value.`;
  const required = /^Missing required arguments?: (.+)$/.exec(message);
  if (required?.[1] !== undefined)
    return `${required[1].split(", ").map(flag).join(", ")} is required.`;
  return undefined;
}

// The first unknown name as it was typed: a flag gets the likely flag, a word is extra.
function unknownWord(names: readonly string[], typed: readonly string[], shape: CommandShape) {
  const asTyped = names
    .map((name) => typed.find((word) => isWordFor(word, name)))
    .find((word) => word !== undefined);
  const word = asTyped ?? names[0] ?? "";
  if (!word.startsWith("-")) return `"${word}" is not expected here.`;
  const bare = (word.replace(/^-+/, "").split("=")[0] ?? "").replace(/^no-/, "");
  const longFlags = shape.flags.filter((name) => name.length > 1);
  const guess = bare.length > 1 ? closestName(bare, longFlags) : undefined;
  return `unknown option ${word.split("=")[0] ?? word}.${guess === undefined ? "" : ` Did you mean --${guess}?`}`;
}

function isWordFor(word: string, name: string): boolean {
  const flagName = word.replace(/^-+/, "").split("=")[0];
  return word.startsWith("-") ? flagName === name || flagName === `no-${name}` : word === name;
}

function badChoice(
  key: string,
  given: string,
  choices: readonly unknown[],
  shape: CommandShape,
): string {
  const names = choices.map(String);
  const value = given.replace(/^\[?"?|"?\]?$/g, "");
  // A typo of the first part of a hyphenated name (`kil` for `kilo-x`) is far from the whole.
  const parts = names.map((name) => name.split("-")[0] ?? name);
  const part = closestName(value, parts);
  const guess = closestName(value, names) ?? names[parts.indexOf(part ?? "")];
  const label = shape.positionals.includes(key) ? key : flag(key);
  const hint = guess === undefined ? "" : ` Did you mean "${guess}"?`;
  return `"${value}" is not a valid ${label}: choose ${listOf(names)}.${hint}`;
}

function missingPositional(shape: CommandShape): string {
  const key = shape.positionals[0] ?? "argument";
  const choices = (shape.choices[key] ?? []).map(String);
  const list = choices.length > 0 ? ` (${listOf(choices)})` : "";
  return `give the ${key}${list}.`;
}

function flag(name: string): string {
  return name.length === 1 ? `-${name}` : `--${name}`;
}

function listOf(names: readonly string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} or ${names.at(-1) ?? ""}`;
}

function oneLine(message: string): string {
  const text = message.replace(/\s*\n\s*/g, " ").trim();
  return /[.?!]$/.test(text) ? text : `${text}.`;
}
