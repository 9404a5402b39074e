// parseHookArgv stands in for node:util's parseArgs on the hook path; parseArgs stays the
// reference: the same values and positionals for any command line.
import { parseArgs } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { COMMAND_NAMES, isHookInvocation, parseHookArgv } from "../../src/commands/hook-argv.js";
import { RUN_FLAGS, toRunArgs } from "../../src/commands/run-flags.js";

// What cli.ts passed to parseArgs before: every value a string or a boolean.
const OPTIONS = Object.fromEntries(
  Object.entries(RUN_FLAGS).map(([name, flag]) => [
    name,
    {
      type: flag.type === "boolean" ? ("boolean" as const) : ("string" as const),
      ...(flag.short === undefined ? {} : { short: flag.short }),
    },
  ]),
);

function reference(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
  });
  return { values: { ...values }, positionals };
}

function ours(args: string[]) {
  const { values, positionals } = parseHookArgv(args);
  return { values: { ...values }, positionals };
}

// Words a hook entry's command line is made of, and the odd ones around them.
const word = fc.oneof(
  fc.constantFrom(
    "--config",
    "-c",
    "-cfile.json",
    "-xc",
    "-xcfile",
    "-cx",
    "--config=a.json",
    "--timeout",
    "--timeout=5",
    "5",
    "--client",
    "claude-code",
    "--event",
    "Stop",
    "--dry-run",
    "--dry-run=false",
    "--wait",
    "--",
    "-",
    "---x",
    "--=a=b",
    "--__proto__",
    "-abc",
    "--unknown",
    "run",
    '{"hook_event_name":"Stop"}',
  ),
  fc.string({ maxLength: 8 }),
);

const ROOT_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

describe("parseHookArgv", () => {
  it.each([
    [["--dry-run"]],
    [["run", "--timeout", "30", "--client", "droid"]],
    [["-c", "x.json", "--wait"]],
    [["--config", "--dry-run"]],
    [["--timeout"]],
    [["--", "--dry-run", '{"a":1}']],
  ])("reads %j as parseArgs does", (args) => {
    expect(ours(args)).toEqual(reference(args));
  });

  it("reads fuzzed command lines as parseArgs does (and so gives toRunArgs the same)", () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 8 }), (args) => {
        const expected = reference(args);
        expect(ours(args)).toEqual(expected);
        const json = expected.positionals.findLast((w) => w.trimStart().startsWith("{"));
        expect(toRunArgs(parseHookArgv(args).values, json)).toEqual(
          toRunArgs(expected.values, json),
        );
      }),
      { numRuns: 20_000 },
    );
  });
});

// `hook-notify --config x doctor` is doctor; a hook entry's own flags never turn it into a command.
describe("isHookInvocation: global options before a command", () => {
  it.each([
    [["--client", "claude-code", "--timeout", "10"], true],
    [["--config", "x.json", "--client", "droid"], true],
    [["-c", "x.json"], true],
    [["--verbose", "doctor"], true],
    [["--client", "codex", '{"type":"agent-turn-complete"}'], true],
    [["--config", "x.json", "doctor"], false],
    [["--config=x.json", "test"], false],
    [["-c", "x.json", "test"], false],
    [["-cx.json", "log"], false],
    [["--no-color", "log"], false],
    [["--no-color", "help", "log"], false],
    [["--get-yargs-completions", "hook-notify", "inst"], false],
    [["instal"], false],
  ])("%j → hook: %s", (argv, isHook) => {
    expect(isHookInvocation(argv)).toBe(isHook);
  });

  // The leading global words were once told by /^(--config=|-c.|--(no-)?color$)/: the hand-written
  // check must read every word as it did.
  it("reads any leading word as the regular expression did", () => {
    const GLOBAL = /^(--config=|-c.|--(no-)?color$)/;
    const word = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom("-h", "--help", "-v", "-V", "run", "-c\n", "-c\u2028x", "--color\n"),
      fc
        .tuple(
          fc.constantFrom("--config=", "-c", "--color", "--no-color", "--co", "-"),
          fc.string({ unit: "binary", maxLength: 3 }),
        )
        .map(([head, tail]) => head + tail),
    );
    fc.assert(
      fc.property(word, (first) => {
        const help = ["--help", "-h", "--version", "-v", "-V"].includes(first);
        const hookWord =
          first === "run" || first.startsWith("-") || first.trimStart().startsWith("{");
        expect(isHookInvocation([first, "doctor"])).toBe(!help && !GLOBAL.test(first) && hookWord);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("COMMAND_NAMES", () => {
  it("names every command cli-yargs.ts registers (else `-c x <it>` falls into hook mode)", () => {
    const registered = readFileSync(join(ROOT_DIR, "src", "cli-yargs.ts"), "utf8");
    const files = [...registered.matchAll(/import\("\.\/commands\/([a-z-]+)\.js"\)/g)].map(
      (match) => match[1] as string,
    );
    const names: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(ROOT_DIR, "src", "commands", `${file}.ts`), "utf8");
      for (const match of text.matchAll(/^ {2}command: "([a-z]+)/gm))
        names.push(match[1] as string);
    }
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) expect(COMMAND_NAMES).toContain(name);
    for (const name of ["sessions", "usage", "controls"]) {
      expect(isHookInvocation(["-c", "x.json", name, "list"])).toBe(false);
    }
  });
});
