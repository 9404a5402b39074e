// `hook-notify --help`: the commands grouped by what a person does with them, from the command
// modules' own `command` and `describe`. The hook's own flags stay in `help run`: an installed
// hook entry passes them, a person rarely types them.

/** Each command in one group; test/commands/help.test.ts checks every registered command is here. */
export const COMMAND_GROUPS: readonly { title: string; commands: readonly string[] }[] = [
  { title: "Set up", commands: ["install", "init", "uninstall", "completion"] },
  { title: "Check", commands: ["doctor", "test", "log"] },
  { title: "Deliver and answer", commands: ["flush", "approve", "mcp"] },
  { title: "The service", commands: ["watch", "sessions", "computers", "usage", "controls"] },
  { title: "Hook (what your agent runs)", commands: ["run"] },
];

/** What the help needs of a command module. */
export interface CommandLine {
  readonly command: string;
  readonly describe: string;
}

const GLOBAL_OPTIONS: readonly (readonly [string, string])[] = [
  ["-c, --config <file>", "Config file (default: ~/.config/hook-notify/config.json)"],
  ["--color, --no-color", "Colour even when not on a terminal, or none"],
  ["-V, --version", "Show the version"],
  ["-h, --help", "Show this help (help <command>: a command's options)"],
];

const EXAMPLES: readonly (readonly [string, string])[] = [
  ["hook-notify install", "add the hooks to every client found (asks first)"],
  ["hook-notify test", "send a sample notification through every sink now"],
  ["hook-notify doctor", "check that notifications can work here"],
];

// The whole text, wrapped to `width` columns.
export function renderTopHelp(
  commands: readonly CommandLine[],
  pitch: string,
  width: number,
): string {
  const byName = new Map(commands.map((line) => [line.command.split(" ")[0] ?? "", line]));
  const rows = COMMAND_GROUPS.map(({ title, commands: names }) => ({
    title,
    rows: names.flatMap((name) => {
      const line = byName.get(name);
      return line === undefined ? [] : [[line.command, line.describe] as const];
    }),
  }));
  const left = Math.max(
    ...[...rows.flatMap((g) => g.rows), ...GLOBAL_OPTIONS].map(([a]) => a.length),
  );
  const table = (entries: readonly (readonly [string, string])[]): string[] =>
    entries.flatMap(([name, text]) => wrapRow(name, text, left, width));
  return [
    "Usage: hook-notify <command> [options]",
    "",
    ...wrap(pitch, width),
    "",
    ...rows.flatMap((group) => [`${group.title}:`, ...table(group.rows), ""]),
    "Options:",
    ...table(GLOBAL_OPTIONS),
    "",
    "Examples:",
    ...table(EXAMPLES),
    "",
    ...wrap(
      "hook-notify help <command> shows a command's options and examples; help run the hook's own " +
        "flags; help exit-codes the exit codes.",
      width,
    ),
    "",
  ].join("\n");
}

function wrapRow(name: string, text: string, left: number, width: number): string[] {
  const indent = " ".repeat(left + 4);
  const [first = "", ...rest] = wrap(text, Math.max(20, width - left - 4));
  return [`  ${name.padEnd(left)}  ${first}`, ...rest.map((line) => indent + line)];
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}
