import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLUGIN_MARKER, readPluginEntries } from "../../src/settings/plan-opencode-file.js";
import { makeSandbox, modeOf, readMaybe, readTree, runSettings } from "../settings/tree.js";

const FOREIGN = { type: "command", command: "notify-send done", timeout: 5 };
// The user scope runs the launcher (src/settings/launcher.ts), which records node and the script.
const argvIn = (home: string): string[] => [
  join(home, ".local/share/hook-notify/launchers/opencode/hook-notify.sh"),
  "--client",
  "opencode",
  "--timeout",
  "10",
];
const pretty = (value: unknown): string => JSON.stringify(value, null, 2) + "\n";

const run = runSettings;

type Hooks = Record<string, { hooks: { command: string; timeout: number }[] }[]>;
const hooksOf = (text: string | undefined): Hooks => (JSON.parse(text!) as { hooks: Hooks }).hooks;

// client × scope → the file install writes, its events in the client's names, their timeouts in
// the client's unit (Gemini counts milliseconds; Codex clamps SessionEnd to 3 s).
const CASES = [
  [
    "codex",
    "user",
    "home/.codex/hooks.json",
    { PermissionRequest: 10, Stop: 10, SubagentStop: 10, SessionEnd: 3 },
  ],
  [
    "codex",
    "project",
    "project/.codex/hooks.json",
    { PermissionRequest: 10, Stop: 10, SubagentStop: 10, SessionEnd: 3 },
  ],
  [
    "gemini",
    "user",
    "home/.gemini/settings.json",
    { Notification: 10_000, AfterAgent: 10_000, SessionEnd: 5_000 },
  ],
  [
    "gemini",
    "project",
    "project/.gemini/settings.json",
    { Notification: 10_000, AfterAgent: 10_000, SessionEnd: 5_000 },
  ],
] as const;

describe.each(CASES)("%s, %s scope", (client, scope, path, timeouts) => {
  const args = { client, scope } as const;

  it("writes one entry per event with the client's timeout unit; a second run changes nothing", async () => {
    const box = await makeSandbox();
    expect((await run(box, "install", args)).code).toBe(0);
    const hooks = hooksOf(await readMaybe(join(box.root, path)));
    const written = Object.fromEntries(
      Object.entries(hooks).map(([event, groups]) => [event, groups[0]!.hooks[0]!.timeout]),
    );
    expect(written).toEqual(timeouts);
    for (const [event, groups] of Object.entries(hooks)) {
      const seconds = event === "SessionEnd" ? (client === "codex" ? 3 : 5) : 10;
      expect(groups[0]!.hooks[0]!.command).toMatch(
        new RegExp(`--client ${client} --timeout ${seconds}$`),
      );
    }
    const before = await readTree(box.root);
    expect((await run(box, "install", args)).out).toContain("No change");
    expect(await readTree(box.root)).toEqual(before);
  });

  it("keeps foreign hooks, and uninstall gives the original back byte for byte", async () => {
    const event = client === "codex" ? "Stop" : "AfterAgent";
    const original = pretty({ theme: "dark", hooks: { [event]: [{ hooks: [FOREIGN] }] } });
    const box = await makeSandbox({ [path]: original });
    expect((await run(box, "install", args)).code).toBe(0);
    expect(await readMaybe(join(box.root, path))).toContain(FOREIGN.command);
    expect(await readMaybe(join(box.root, path + ".bak"))).toBe(original);
    expect((await run(box, "uninstall", args)).code).toBe(0);
    expect(await readMaybe(join(box.root, path))).toBe(original);
  });

  it("--events takes hook-notify's names: Stop is the client's end of a turn", async () => {
    const box = await makeSandbox();
    expect((await run(box, "install", { ...args, events: ["Stop"] })).code).toBe(0);
    const hooks = hooksOf(await readMaybe(join(box.root, path)));
    expect(Object.keys(hooks)).toEqual([client === "codex" ? "Stop" : "AfterAgent"]);
  });
});

describe("Codex", () => {
  it("says the hooks must be trusted in /hooks before they run", async () => {
    const box = await makeSandbox();
    const result = await run(box, "install", { client: "codex" });
    expect(result.out).toContain("Note: Codex runs a new or changed hook only after you trust it");
  });

  it("puts the project wrapper beside hooks.json and finds it through git", async () => {
    const box = await makeSandbox();
    await run(box, "install", { client: "codex", scope: "project" });
    expect(await modeOf(join(box.project, ".codex/hooks/hook-notify.sh"))).toBe(0o755);
    expect(await readMaybe(join(box.project, ".codex/hooks.json"))).toContain(
      '"\\"$(git rev-parse --show-toplevel)\\"/.codex/hooks/hook-notify.sh --client codex --timeout 10"',
    );
  });

  it("honours CODEX_HOME", async () => {
    const box = await makeSandbox();
    box.machine.env = { CODEX_HOME: join(box.root, "elsewhere") };
    expect((await run(box, "install", { client: "codex" })).code).toBe(0);
    expect(await readMaybe(join(box.root, "elsewhere/hooks.json"))).toContain("--client codex");
  });

  it("refuses comments in hooks.json (Codex reads strict JSON), file intact", async () => {
    const box = await makeSandbox({ "home/.codex/hooks.json": '{\n  // mine\n  "hooks": {}\n}\n' });
    const before = await readTree(box.root);
    const result = await run(box, "install", { client: "codex" });
    expect(result.code).toBe(1);
    expect(result.err).toContain("--fix-jsonc");
    expect(await readTree(box.root)).toEqual(before);
  });

  it("refuses --scope local: a usage mistake, exit 2", async () => {
    const box = await makeSandbox();
    const result = await run(box, "install", { client: "codex", scope: "local" });
    expect(result.code).toBe(2);
    expect(result.err).toContain("Codex has no local scope");
  });
});

describe("Gemini CLI", () => {
  it("keeps the comments of settings.json (Gemini strips them itself)", async () => {
    const text = '{\n  // my theme\n  "ui": {\n    "theme": "dark"\n  }\n}\n';
    const box = await makeSandbox({ "home/.gemini/settings.json": text });
    expect((await run(box, "install", { client: "gemini" })).code).toBe(0);
    const installed = (await readMaybe(join(box.home, ".gemini/settings.json")))!;
    expect(installed).toContain("// my theme");
    expect(installed).toContain('"AfterAgent"');
    expect((await run(box, "uninstall", { client: "gemini" })).code).toBe(0);
    expect(await readMaybe(join(box.home, ".gemini/settings.json"))).toBe(text);
  });

  it("replaces the copies `gemini hooks migrate --from-claude` made of Claude Code's entries", async () => {
    // Claude Code's Stop and SubagentStop both become AfterAgent, still with --client claude-code.
    const migrated = {
      type: "command",
      command: "hook-notify --client claude-code --timeout 10",
      timeout: 10,
    };
    const box = await makeSandbox({
      "home/.gemini/settings.json": pretty({
        hooks: { AfterAgent: [{ hooks: [migrated] }, { hooks: [migrated] }] },
      }),
    });
    expect((await run(box, "install", { client: "gemini" })).code).toBe(0);
    const hooks = hooksOf(await readMaybe(join(box.home, ".gemini/settings.json")));
    const commands = hooks["AfterAgent"]!.flatMap((group) => group.hooks.map((h) => h.command));
    expect(commands).toHaveLength(1);
    expect(commands[0]).toContain("--client gemini");
  });

  it("warns that Gemini CLI may copy in Claude Code's entries when both are installed", async () => {
    const box = await makeSandbox();
    await run(box, "install", { client: "claude-code" });
    const result = await run(box, "install", { client: "gemini" });
    expect(result.out).toContain("If Gemini CLI imports your Claude Code hooks");
    expect(result.out).toMatch(
      /Warning: Notification, AfterAgent, SessionEnd: hook-notify is also in/,
    );
  });
});

describe("Copilot CLI", () => {
  const file = "home/.copilot/hooks/hook-notify.json";

  it("keeps a file of its own in ~/.copilot/hooks, naming each event with --event; a second run changes nothing", async () => {
    const box = await makeSandbox({
      "home/.copilot/hooks/theirs.json": '{"version":1,"hooks":{}}',
    });
    expect((await run(box, "install", { client: "copilot" })).code).toBe(0);
    const json = JSON.parse((await readMaybe(join(box.root, file)))!) as {
      version: number;
      hooks: Record<string, { type: string; bash: string; timeoutSec: number }[]>;
    };
    expect(json.version).toBe(1);
    expect(Object.keys(json.hooks)).toEqual([
      "notification",
      "agentStop",
      "subagentStop",
      "sessionEnd",
      // Copilot's failure event (read as StopFailure), so an API error is told at once.
      "errorOccurred",
    ]);
    expect(json.hooks["errorOccurred"]![0]!.bash).toMatch(
      /--client copilot --event errorOccurred --timeout 10$/,
    );
    expect(json.hooks["agentStop"]![0]!.bash).toMatch(
      /--client copilot --event agentStop --timeout 10$/,
    );
    expect(json.hooks["sessionEnd"]![0]!.timeoutSec).toBe(5);
    const before = await readTree(box.root);
    expect((await run(box, "install", { client: "copilot" })).out).toContain("No change");
    expect(await readTree(box.root)).toEqual(before);
    expect((await run(box, "uninstall", { client: "copilot" })).code).toBe(0);
    expect(await readMaybe(join(box.root, file))).toBeUndefined();
    expect(await readMaybe(join(box.root, "home/.copilot/hooks/theirs.json"))).toBe(
      '{"version":1,"hooks":{}}',
    );
  });

  it("refuses a hook-notify.json it did not write, file intact", async () => {
    const theirs = pretty({
      version: 1,
      hooks: { agentStop: [{ type: "command", bash: "say done" }] },
    });
    const box = await makeSandbox({ [file]: theirs });
    const result = await run(box, "install", { client: "copilot" });
    expect(result.code).toBe(1);
    expect(result.err).toContain("did not write");
    expect(await readMaybe(join(box.root, file))).toBe(theirs);
  });

  it("uninstall --events Stop keeps the other events", async () => {
    const box = await makeSandbox();
    await run(box, "install", { client: "copilot" });
    expect((await run(box, "uninstall", { client: "copilot", events: ["Stop"] })).code).toBe(0);
    const json = JSON.parse((await readMaybe(join(box.root, file)))!) as { hooks: object };
    expect(Object.keys(json.hooks)).toEqual([
      "notification",
      "subagentStop",
      "sessionEnd",
      "errorOccurred",
    ]);
  });

  it("puts the project file and wrapper in .github/hooks", async () => {
    const box = await makeSandbox();
    await run(box, "install", { client: "copilot", scope: "project" });
    expect(await modeOf(join(box.project, ".github/hooks/hook-notify.sh"))).toBe(0o755);
    expect(await readMaybe(join(box.project, ".github/hooks/hook-notify.json"))).toContain(
      '"\\"$(git rev-parse --show-toplevel)\\"/.github/hooks/hook-notify.sh --client copilot --event notification --timeout 10"',
    );
  });
});

describe("OpenCode", () => {
  const file = "home/.config/opencode/plugins/hook-notify.js";
  const theirs = "export const Mine = async () => ({});\n";

  it("writes a plugin of its own (argument arrays, no shell) beside others; a second run changes nothing; uninstall removes only it", async () => {
    const box = await makeSandbox({ "home/.config/opencode/plugins/mine.js": theirs });
    expect((await run(box, "install", { client: "opencode" })).code).toBe(0);
    const text = (await readMaybe(join(box.root, file)))!;
    const ARGV = argvIn(box.home);
    expect(readPluginEntries(text)).toEqual({
      "session.idle": { command: ARGV, timeout: 10 },
      "permission.asked": { command: ARGV, timeout: 10 },
      "session.error": { command: ARGV, timeout: 10 },
    });
    const before = await readTree(box.root);
    expect((await run(box, "install", { client: "opencode" })).out).toContain("No change");
    expect(await readTree(box.root)).toEqual(before);
    expect((await run(box, "uninstall", { client: "opencode" })).code).toBe(0);
    expect(await readMaybe(join(box.root, file))).toBeUndefined();
    expect(await readMaybe(ARGV[0]!)).toBeUndefined();
    expect(await readMaybe(join(box.root, "home/.config/opencode/plugins/mine.js"))).toBe(theirs);
  });

  // Issue 25: re-running install dropped the user's own arguments from the plugin's argv.
  it("a second install keeps the arguments the user added to the plugin's argv", async () => {
    const box = await makeSandbox();
    await run(box, "install", { client: "opencode" });
    const path = join(box.root, file);
    const edited = (await readMaybe(path))!.replaceAll(
      '"--timeout","10"]',
      '"--timeout","10","--config","/home/me/hn.json"]',
    );
    await writeFile(path, edited);
    expect((await run(box, "install", { client: "opencode" })).code).toBe(0);
    const entries = readPluginEntries((await readMaybe(path))!);
    expect(entries?.["session.idle"]?.command).toEqual([
      ...argvIn(box.home),
      "--config",
      "/home/me/hn.json",
    ]);
  });

  it("refuses a hook-notify.js it did not write, for install and uninstall, file intact", async () => {
    const box = await makeSandbox({ [file]: theirs });
    const result = await run(box, "install", { client: "opencode" });
    expect(result.code).toBe(1);
    expect(result.err).toContain("did not write");
    expect((await run(box, "uninstall", { client: "opencode" })).code).toBe(1);
    expect(await readMaybe(join(box.root, file))).toBe(theirs);
  });

  it("uninstall --events Stop keeps the other events", async () => {
    const box = await makeSandbox();
    await run(box, "install", { client: "opencode" });
    expect((await run(box, "uninstall", { client: "opencode", events: ["Stop"] })).code).toBe(0);
    const entries = readPluginEntries((await readMaybe(join(box.root, file)))!);
    expect(Object.keys(entries!)).toEqual(["permission.asked", "session.error"]);
  });

  it("puts the project plugin in .opencode/plugins, running the wrapper beside it", async () => {
    const box = await makeSandbox();
    await run(box, "install", { client: "opencode", scope: "project" });
    expect(await modeOf(join(box.project, ".opencode/hooks/hook-notify.sh"))).toBe(0o755);
    const text = await readMaybe(join(box.project, ".opencode/plugins/hook-notify.js"));
    expect(readPluginEntries(text!)?.["session.idle"]?.command).toEqual([
      "../hooks/hook-notify.sh",
      "--client",
      "opencode",
      "--timeout",
      "10",
    ]);
    expect(text).not.toContain(box.root);
  });

  it("follows $XDG_CONFIG_HOME as OpenCode does", async () => {
    const box = await makeSandbox();
    const xdg = join(box.root, "xdg");
    box.machine.env = { XDG_CONFIG_HOME: xdg };
    await run(box, "install", { client: "opencode" });
    expect(await readMaybe(join(xdg, "opencode/plugins/hook-notify.js"))).toContain(PLUGIN_MARKER);
  });
});

describe("install with no --client", () => {
  it("sets up every client whose folder is in HOME, and only those", async () => {
    const box = await makeSandbox({
      "home/.codex/config.toml": "",
      "home/.gemini/settings.json": "{}\n",
      "home/.config/opencode/opencode.json": "{}\n",
    });
    const result = await run(box, "install", { client: undefined });
    expect(result.code).toBe(0);
    expect(await readMaybe(join(box.home, ".config/opencode/plugins/hook-notify.js"))).toContain(
      PLUGIN_MARKER,
    );
    expect(await readMaybe(join(box.home, ".codex/hooks.json"))).toContain("--client codex");
    expect(await readMaybe(join(box.home, ".gemini/settings.json"))).toContain("--client gemini");
    expect(await readMaybe(join(box.home, ".claude/settings.json"))).toBeUndefined();
    expect(await readMaybe(join(box.home, ".factory/hooks.json"))).toBeUndefined();
  });
});
