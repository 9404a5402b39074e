// Every command's help and every kind of usage mistake, in-process through the real parser: each
// command has an example, the hook's internal flags show only in `help run`, and a mistake is one
// line that names the fix and runs nothing.
import { describe, expect, it, onTestFinished } from "vitest";
import { createParser, loadCommands } from "../../src/cli-yargs.js";
import { COMMAND_NAMES } from "../../src/commands/hook-argv.js";
import { RUN_FLAGS } from "../../src/commands/run-flags.js";
import { COMMAND_GROUPS, renderTopHelp } from "../../src/commands/top-help.js";

/** The run flags an installed hook entry passes; a person never types them. */
const INTERNAL = ["client", "event", "timeout"] as const;
const COMMANDS = COMMAND_NAMES.filter((name) => name !== "help");

// Help text, or the one mistake line (thrown so that no handler runs).
async function parse(args: string[]): Promise<{ output: string; mistake?: string }> {
  const commands = await loadCommands();
  // As typed on a command line: `sessions` reads the words as given (process.argv) to tell a
  // reply that starts with "-" from a mistyped flag.
  const argv = process.argv;
  process.argv = [argv[0] ?? "node", "hook-notify", ...args];
  onTestFinished(() => {
    process.argv = argv;
  });
  let mistake: string | undefined;
  const parser = await createParser(args, commands, (line) => {
    mistake = line;
    throw new Error(line);
  });
  try {
    const output = await new Promise<string>((resolve) => {
      void parser.exitProcess(false).parse(args, {}, (_error, _argv, text) => {
        resolve(text);
      });
    });
    return { output };
  } catch (error) {
    if (mistake === undefined) throw error;
    return { output: "", mistake };
  }
}

describe("help", () => {
  it("groups every registered command exactly once", async () => {
    const grouped = COMMAND_GROUPS.flatMap((group) => group.commands);
    expect([...grouped].sort()).toEqual([...COMMANDS, "run"].sort());
    const commands = await loadCommands();
    const text = renderTopHelp(
      commands.map((c) => ({ command: String(c.command), describe: String(c.describe) })),
      "pitch",
      100,
    );
    for (const flag of ["--client", "--event", "--timeout", "--dry-run", "--wait"])
      expect(text).not.toContain(flag);
    for (const { title } of COMMAND_GROUPS) expect(text).toContain(`${title}:`);
  });

  it.each(COMMANDS)(
    "%s --help has an example and none of the hook's internal flags",
    async (name) => {
      const { output } = await parse([name, "--help"]);
      expect(output).toContain(`hook-notify ${name}`);
      expect(output).toMatch(/\nExamples:\n {2}hook-notify /);
      for (const flag of INTERNAL) expect(output).not.toContain(RUN_FLAGS[flag]?.describe);
    },
  );

  it("run --help shows the internal flags, in their own group", async () => {
    const { output } = await parse(["run", "--help"]);
    expect(output).toContain("Written by install into each hook entry:");
    for (const flag of INTERNAL) expect(output).toContain(`--${flag}`);
  });
});

describe("usage mistakes: one line naming the fix, nothing run", () => {
  /** The first word the commands with a required positional need. */
  const FIRST: Record<string, string> = {
    computers: "list",
    sessions: "list",
    usage: "tokens",
    controls: "history",
  };

  it.each(COMMANDS)("%s --bgous", async (name) => {
    const first = FIRST[name];
    const { mistake } = await parse([name, ...(first === undefined ? [] : [first]), "--bgous"]);
    expect(mistake).toBe(
      `hook-notify ${name}: unknown option --bgous. See "hook-notify ${name} --help".`,
    );
  });

  it.each([
    [["install", "--dry-rn"], "unknown option --dry-rn. Did you mean --dry-run?"],
    [["install", "--client", "cladue"], 'Did you mean "claude-code"?'],
    [
      ["completion", "zssh"],
      '"zssh" is not a valid shell: choose bash, zsh, fish or powershell. Did you mean "zsh"?',
    ],
    [["sessions"], "give the action (list, get, create, update, messages or send)."],
    [["usage"], "give the kind (tokens,"],
    [["test", "--sink"], "--sink needs a value."],
    [["log", "--tail"], "--tail needs a value."],
    [["log", "-n", "abc"], "--tail: give a whole number of runs"],
    [["doctor", "extra"], '"extra" is not expected here.'],
    [["init", "--sinks", "--force"], "--sinks needs a value."],
  ])("%j", async (args, fix) => {
    const { mistake } = await parse(args);
    expect(mistake).toContain(fix);
    expect(mistake).toMatch(/ See "hook-notify \w+ --help"\.$/);
    expect(mistake).not.toContain("\n");
  });
});
