import { describe, expect, it } from "vitest";
import {
  absoluteProgram,
  buildCommand,
  handlerKind,
  isHookNotifyCommand,
  isHookNotifyHandler,
  programPaths,
  quoteForShell,
  splitWords,
} from "../../src/settings/hook-command.js";

describe("isHookNotifyCommand", () => {
  it.each([
    "hook-notify",
    "hook-notify run --client droid",
    "/usr/local/bin/hook-notify --timeout 10",
    '"/usr/bin/node" "/opt/hook notify/bin/hook-notify.js" --client droid --timeout 10',
    "node /home/me/.npm-global/lib/node_modules/hook-notify/bin/hook-notify.js",
    "node --no-warnings ./bin/hook-notify.js",
    "npx -y hook-notify",
    "HOOK_NOTIFY_DEBUG=1 hook-notify",
    '"$FACTORY_PROJECT_DIR"/.factory/hooks/hook-notify.sh --client droid --timeout 10',
    '"$CLAUDE_PROJECT_DIR"/.claude/hooks/hook-notify.sh',
    '"C:\\Program Files\\nodejs\\node.exe" "C:\\Users\\me\\hook-notify\\bin\\hook-notify.js"',
    "hook-notify.cmd --client droid",
    '@"C:\\Program Files\\nodejs\\node.exe" "C:\\hn\\bin\\hook-notify.js" --client droid',
  ])("recognises %s", (command) => {
    expect(isHookNotifyCommand(command)).toBe(true);
  });

  it.each([
    "afplay /System/Library/Sounds/Glass.aiff",
    "notify-send hook-notify",
    "~/.factory/hooks/notify-wait.sh",
    "node ./scripts/other.js hook-notify",
    "/usr/bin/hook-notify-slack",
    "echo hook-notify.js",
    "",
  ])("leaves %s alone", (command) => {
    expect(isHookNotifyCommand(command)).toBe(false);
  });
});

describe("exec form (Claude Code's command + args)", () => {
  it.each<[string, unknown, boolean]>([
    [
      "C:\\Program Files\\nodejs\\node.exe",
      ["C:\\hn\\bin\\hook-notify.js", "--client", "claude-code"],
      true,
    ],
    ["/usr/bin/node", ["/opt/hook notify/bin/hook-notify.js"], true],
    ["hook-notify", [], true],
    ["node.exe", ["C:\\tools\\other.js", "hook-notify.js"], false],
    ["python", ["-S", "guard.py"], false],
    ["/usr/bin/node", [1, 2], false],
  ])("%s with args %j: %s", (command, args, ours) => {
    expect(isHookNotifyHandler(command, args)).toBe(ours);
  });

  it("finds the absolute paths doctor checks: node and the script, in either form", () => {
    expect(programPaths("C:\\node.exe", ["C:\\hn\\hook-notify.js", "--client", "x"])).toEqual([
      "C:\\node.exe",
      "C:\\hn\\hook-notify.js",
    ]);
    expect(
      programPaths('@"C:\\a b\\node.exe" "D:/hn/hook-notify.js" --timeout 5', undefined),
    ).toEqual(["C:\\a b\\node.exe", "D:/hn/hook-notify.js"]);
    expect(
      programPaths('"/usr/bin/node" "/opt/hn/hook-notify.js" --client droid', undefined),
    ).toEqual(["/usr/bin/node", "/opt/hn/hook-notify.js"]);
    expect(
      programPaths('"$CLAUDE_PROJECT_DIR"/.claude/hooks/hook-notify.sh --client x', undefined),
    ).toEqual([]);
    expect(programPaths("npx -y hook-notify", undefined)).toEqual([]);
  });
});

describe("command building", () => {
  it("splits words like sh for plain quoting", () => {
    expect(splitWords(`"a b" 'c"d' e"f g"h ""`)).toEqual(["a b", 'c"d', "ef gh", ""]);
  });

  it.each([
    ["/usr/bin/node", "linux", '"/usr/bin/node"'],
    ['/opt/my $dir/`x`/"q"', "darwin", '"/opt/my \\$dir/\\`x\\`/\\"q\\""'],
    ["C:\\Program Files\\nodejs\\node.exe", "win32", '"C:\\Program Files\\nodejs\\node.exe"'],
  ] as const)("quotes %s for %s", (path, platform, quoted) => {
    expect(quoteForShell(path, platform)).toBe(quoted);
  });

  it("builds an absolute command that carries the client and the budget", () => {
    const base = absoluteProgram("/usr/bin/node", "/opt/hook notify/bin/hook-notify.js", "linux");
    const command = buildCommand(base, "droid", 10);
    expect(command).toBe(
      '"/usr/bin/node" "/opt/hook notify/bin/hook-notify.js" --client droid --timeout 10',
    );
    expect(isHookNotifyCommand(command)).toBe(true);
  });
});

// install tells two entries of ours on one event apart by what they run: the notification or
// `approve` (Claude Code's PermissionDenied holds both with install --approve --retry).
describe("handlerKind", () => {
  it.each([
    ['"/usr/bin/node" "/opt/hn/bin/hook-notify.cjs" --client claude-code --timeout 10', "notify"],
    ["hook-notify run --client droid", "notify"],
    [
      '"/h/launchers/claude-code/hook-notify.sh" approve --client claude-code --timeout 35',
      "approve",
    ],
    ["VAR=1 npx hook-notify approve --client codex 2>>/tmp/log", "approve"],
    ["cd /x && hook-notify approve --client claude-code", "approve"],
    ["sh -c 'hook-notify approve --client claude-code'", "approve"],
    ['@"C:\\node.exe" "C:\\hn\\hook-notify.cjs" --client droid', "notify"],
  ])("%s: %s", (command, kind) => {
    expect(handlerKind(command)).toBe(kind);
  });

  it("reads exec form's arguments", () => {
    expect(handlerKind("C:\\node.exe", ["C:\\hn\\hook-notify.cjs", "approve", "--client"])).toBe(
      "approve",
    );
    expect(handlerKind("C:\\node.exe", ["C:\\hn\\hook-notify.cjs", "--client", "x"])).toBe(
      "notify",
    );
  });
});
