import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runSettingsCommand, type SettingsArgs } from "../../src/settings/settings-command.js";
import { commitJobs } from "../../src/settings/commit-jobs.js";
import {
  prepareInstall,
  prepareUninstall,
  type SettingsRequest,
} from "../../src/settings/prepare.js";
import {
  SETTINGS_ARGS,
  makeSandbox,
  modeOf,
  readMaybe,
  readTree,
  type Sandbox,
  type Tree,
} from "./tree.js";

const FOREIGN = { type: "command", command: "notify-send Droid done", timeout: 5 };
const pretty = (value: unknown): string => JSON.stringify(value, null, 2) + "\n";

// Runs the command like the CLI does and keeps what it printed.
async function run(
  box: Sandbox,
  action: "install" | "uninstall",
  args: Partial<SettingsArgs> = {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runSettingsCommand(
    action,
    { ...SETTINGS_ARGS, ...args },
    {
      machine: box.machine,
      out: (text) => out.push(text),
      err: (line) => err.push(line),
    },
  );
  return { code, out: out.join(""), err: err.join("\n") };
}

const request = (over: Partial<SettingsRequest> = {}): SettingsRequest => ({
  clients: ["claude-code"],
  scope: "user",
  events: undefined,
  timeout: undefined,
  fixJsonc: false,
  ...over,
});

// client × scope → the file install writes, relative to the sandbox root.
const CASES = [
  ["droid", "user", "home/.factory/hooks.json"],
  ["droid", "project", "project/.factory/hooks.json"],
  ["claude-code", "user", "home/.claude/settings.json"],
  ["claude-code", "project", "project/.claude/settings.json"],
  ["claude-code", "local", "project/.claude/settings.local.json"],
] as const;

describe.each(CASES)("%s, %s scope", (client, scope, path) => {
  const args = { client, scope } as const;
  const eventsOf = (text: string | undefined): unknown => {
    const json = JSON.parse(text!) as Record<string, unknown>;
    return client === "droid" ? json : json["hooks"];
  };

  it("creates missing folders and file, then a second run changes nothing", async () => {
    const box = await makeSandbox();
    const first = await run(box, "install", args);
    expect(first.code).toBe(0);
    expect(first.out).toContain("Next: open /hooks");
    const text = await readMaybe(join(box.root, path));
    // Claude Code fires StopFailure instead of Stop when a turn ends on an API error, and
    // PermissionDenied when auto mode blocks an action; Droid has neither.
    expect(Object.keys(eventsOf(text) as object)).toEqual([
      "Notification",
      "Stop",
      "SubagentStop",
      "SessionEnd",
      ...(client === "claude-code" ? ["StopFailure", "PermissionDenied"] : []),
      "UserPromptSubmit",
    ]);
    expect(text).toContain('"timeout": 5');
    const before = await readTree(box.root);
    const second = await run(box, "install", args);
    expect(second.out).toContain("No change");
    expect(await readTree(box.root)).toEqual(before);
  });

  it("keeps foreign hooks on the same events, and uninstall gives the original back byte for byte", async () => {
    const original =
      client === "droid"
        ? pretty({ claudeHooksImported: true, Stop: [{ hooks: [FOREIGN] }] })
        : pretty({ model: "opus", hooks: { Stop: [{ matcher: "", hooks: [FOREIGN] }] } });
    const box = await makeSandbox({ [path]: original });
    expect((await run(box, "install", args)).code).toBe(0);
    const installed = await readMaybe(join(box.root, path));
    expect(installed).toContain(FOREIGN.command);
    // The StopFailure entry is written, and the byte-for-byte check below proves uninstall removes it.
    expect(Object.keys(eventsOf(installed) as object).includes("StopFailure")).toBe(
      client === "claude-code",
    );
    expect(await readMaybe(join(box.root, path + ".bak"))).toBe(original);
    expect((await run(box, "uninstall", args)).code).toBe(0);
    expect(await readMaybe(join(box.root, path))).toBe(original);
  });

  it("uninstall after install on a missing file leaves no file and no wrapper", async () => {
    const box = await makeSandbox();
    await run(box, "install", args);
    await run(box, "uninstall", args);
    const left = Object.keys(await readTree(box.root)).filter((f) => !f.endsWith(".bak"));
    expect(left.sort()).toEqual(["home/.keep", "project/.keep"]);
  });

  it("--dry-run prints the diff and writes nothing", async () => {
    const box = await makeSandbox();
    const before = await readTree(box.root);
    const result = await run(box, "install", { ...args, dryRun: true });
    expect(result.out).toMatch(/\+ +"Stop": \[/);
    expect(result.out).toContain("Dry run: nothing was written");
    expect(await readTree(box.root)).toEqual(before);
  });
});

describe("install safety", () => {
  it.each<[string, Tree, string]>([
    ["invalid JSON", { "home/.claude/settings.json": '{ "model": "opus", }x' }, "claude-code"],
    [
      "JSONC for Claude Code",
      { "home/.claude/settings.json": '{\n  // mine\n  "model": "opus"\n}\n' },
      "claude-code",
    ],
    ["JSONC for Droid", { "home/.factory/hooks.json": '{\n  "Stop": [],\n}\n' }, "droid"],
    ["a BOM for Droid", { "home/.factory/hooks.json": '\uFEFF{"Stop": []}' }, "droid"],
  ])("refuses %s: SETTINGS_INVALID, exit 1, original intact", async (_name, tree, client) => {
    const box = await makeSandbox(tree);
    const before = await readTree(box.root);
    const clients = [client as "droid" | "claude-code"];
    await expect(prepareInstall(request({ clients }), box.machine)).rejects.toMatchObject({
      code: "SETTINGS_INVALID",
    });
    const result = await run(box, "install", { client: clients[0]! });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/--fix-jsonc|invalid JSON/);
    expect(await readTree(box.root)).toEqual(before);
  });

  it("--fix-jsonc rewrites a Droid JSONC file as strict JSON, keeping the original as .bak", async () => {
    const jsonc =
      '{\n  // mine\n  "Stop": [{ "hooks": [{ "type": "command", "command": "say hi" }] }],\n}\n';
    const box = await makeSandbox({ "home/.factory/hooks.json": jsonc });
    expect((await run(box, "install", { client: "droid", fixJsonc: true })).code).toBe(0);
    const text = (await readMaybe(join(box.home, ".factory/hooks.json")))!;
    expect(() => JSON.parse(text) as unknown).not.toThrow();
    expect(text).toContain("say hi");
    expect(await readMaybe(join(box.home, ".factory/hooks.json.bak"))).toBe(jsonc);
  });

  it.each([
    ["hooks is a list", { hooks: [] }],
    ["an event is an object", { hooks: { Stop: { command: "x" } } }],
  ])("refuses when %s: SETTINGS_CONFLICT, no write", async (_name, value) => {
    const box = await makeSandbox({ "home/.claude/settings.json": pretty(value) });
    const before = await readTree(box.root);
    await expect(prepareInstall(request(), box.machine)).rejects.toMatchObject({
      code: "SETTINGS_CONFLICT",
    });
    expect((await run(box, "install")).code).toBe(1);
    expect(await readTree(box.root)).toEqual(before);
  });

  it("refuses a wrapped Droid hooks.json, which droid ignores", async () => {
    const box = await makeSandbox({ "home/.factory/hooks.json": pretty({ hooks: { Stop: [] } }) });
    await expect(
      prepareInstall(request({ clients: ["droid"] }), box.machine),
    ).rejects.toMatchObject({
      code: "SETTINGS_CONFLICT",
    });
  });

  it("refuses a read-only file: SETTINGS_WRITE, file intact", async () => {
    const text = pretty({ model: "opus" });
    const box = await makeSandbox({ "home/.claude/settings.json": { text, mode: 0o444 } });
    const prepared = await prepareInstall(request(), box.machine);
    await expect(commitJobs(prepared.previews)).rejects.toMatchObject({ code: "SETTINGS_WRITE" });
    expect(await readMaybe(join(box.home, ".claude/settings.json"))).toBe(text);
    expect(await modeOf(join(box.home, ".claude/settings.json"))).toBe(0o444);
  });

  it("refuses --client droid --scope local: USAGE", async () => {
    const box = await makeSandbox();
    await expect(
      prepareInstall(request({ clients: ["droid"], scope: "local" }), box.machine),
    ).rejects.toMatchObject({
      code: "USAGE",
    });
    expect((await run(box, "install", { client: "droid", scope: "local" })).code).toBe(2);
  });

  it.each([0, 2.5, 601])("refuses --timeout %s: exit 1", async (timeout) => {
    const box = await makeSandbox();
    expect((await run(box, "install", { timeout })).code).toBe(2);
  });

  it("refuses an unknown event: USAGE", async () => {
    const box = await makeSandbox();
    await expect(prepareInstall(request({ events: ["Stopp"] }), box.machine)).rejects.toMatchObject(
      { code: "USAGE" },
    );
  });

  it("keeps one entry when two installs run at once", async () => {
    const box = await makeSandbox({ "home/.claude/settings.json": pretty({ model: "opus" }) });
    const [a, b] = await Promise.all([
      prepareInstall(request(), box.machine),
      prepareInstall(request({ timeout: 20 }), box.machine),
    ]);
    await Promise.all([commitJobs(a.previews), commitJobs(b.previews), commitJobs(a.previews)]);
    const json = JSON.parse((await readMaybe(join(box.home, ".claude/settings.json")))!) as {
      model: string;
      hooks: Record<string, { hooks: unknown[] }[]>;
    };
    expect(json.model).toBe("opus");
    for (const groups of Object.values(json.hooks))
      expect(groups.flatMap((g) => g.hooks)).toHaveLength(1);
    const files = Object.keys(await readTree(box.home));
    expect(files.filter((f) => f.includes(".lock") || f.endsWith(".tmp"))).toEqual([]);
  });

  it("updates an older hook-notify entry (other path, other timeout) in place, keeping its neighbours", async () => {
    const old = {
      type: "command",
      command: "/old/prefix/bin/hook-notify --timeout 60",
      timeout: 60,
    };
    const original = pretty({ hooks: { Stop: [{ hooks: [FOREIGN, old] }] } });
    const box = await makeSandbox({ "home/.claude/settings.json": original });
    const result = await run(box, "install", { events: ["Stop"] });
    expect(result.out).toContain("Stop: updated");
    const json = JSON.parse((await readMaybe(join(box.home, ".claude/settings.json")))!) as {
      hooks: { Stop: { hooks: { command: string; timeout: number }[] }[] };
    };
    expect(json.hooks.Stop).toHaveLength(1);
    expect(json.hooks.Stop[0]!.hooks[0]).toEqual(FOREIGN);
    expect(json.hooks.Stop[0]!.hooks[1]!.command).toBe(
      `"${join(box.home, ".local/share/hook-notify/launchers/claude-code/hook-notify.sh")}" --client claude-code --timeout 10`,
    );
  });
});

describe("Droid's legacy settings.json", () => {
  const legacy = (hooks: object): string =>
    pretty({ model: "x", hooks: { claudeHooksImported: true, ...hooks } });
  const ours = { type: "command", command: "hook-notify --client droid", timeout: 10 };

  it("moves hook-notify's entries to hooks.json instead of duplicating them", async () => {
    const before = legacy({ Stop: [{ hooks: [ours] }], PreToolUse: [{ hooks: [FOREIGN] }] });
    const box = await makeSandbox({ "home/.factory/settings.json": before });
    const result = await run(box, "install", { client: "droid" });
    expect(result.out).toContain("Stop: moved to hooks.json");
    const settings = JSON.parse(
      (await readMaybe(join(box.home, ".factory/settings.json")))!,
    ) as object;
    expect(settings).toEqual({
      model: "x",
      hooks: { claudeHooksImported: true, PreToolUse: [{ hooks: [FOREIGN] }] },
    });
    expect(await readMaybe(join(box.home, ".factory/hooks.json"))).toContain('"Stop"');
    expect(result.out).not.toContain("Warning");
  });

  it("refuses a project install that would silence the hooks in .factory/settings.json", async () => {
    const box = await makeSandbox({
      "project/.factory/settings.json": legacy({ Stop: [{ hooks: [FOREIGN] }] }),
    });
    await expect(
      prepareInstall(request({ clients: ["droid"], scope: "project" }), box.machine),
    ).rejects.toMatchObject({ code: "SETTINGS_CONFLICT" });
  });

  it("leaves a legacy settings.json that does not parse alone, with a warning", async () => {
    const box = await makeSandbox({ "home/.factory/settings.json": "{ nope" });
    const result = await run(box, "install", { client: "droid" });
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/Warning: .*settings\.json: not valid JSON/);
    expect(await readMaybe(join(box.home, ".factory/settings.json"))).toBe("{ nope");
  });
});

describe("double notifications", () => {
  it("warns when user and project scope both run hook-notify", async () => {
    const box = await makeSandbox();
    await run(box, "install", { scope: "user" });
    const result = await run(box, "install", { scope: "project" });
    expect(result.out).toMatch(
      /Warning: Notification, Stop, SubagentStop, SessionEnd, StopFailure, PermissionDenied, UserPromptSubmit: hook-notify also runs from ~\/\.claude\/settings\.json/,
    );
    expect(result.out).toContain("hook-notify uninstall --client claude-code --scope user");
  });

  it("warns that Droid may import the Claude Code entries with --client all", async () => {
    const box = await makeSandbox();
    const result = await run(box, "install", { client: "all" });
    expect(result.out).toContain("If Droid imports your Claude Code hooks");
    expect(await readMaybe(join(box.home, ".factory/hooks.json"))).toContain("--client droid");
    expect(await readMaybe(join(box.home, ".claude/settings.json"))).toContain(
      "--client claude-code",
    );
  });

  it("says where hook-notify still runs after an uninstall", async () => {
    const box = await makeSandbox();
    await run(box, "install", { client: "all" });
    const result = await run(box, "uninstall", { client: "claude-code" });
    expect(result.out).toMatch(/still runs from ~\/\.factory\/hooks\.json/);
  });
});

describe("choosing clients and scopes", () => {
  it("installs for every client that has a folder in HOME when --client is not given", async () => {
    const box = await makeSandbox({ "home/.factory/settings.json": "{}" });
    await run(box, "install", { client: undefined });
    expect(await readMaybe(join(box.home, ".factory/hooks.json"))).toBeDefined();
    expect(await readMaybe(join(box.home, ".claude/settings.json"))).toBeUndefined();
  });

  it("asks for --client when no client folder exists", async () => {
    const box = await makeSandbox();
    expect((await run(box, "install", { client: undefined })).code).toBe(2);
  });

  it("writes an executable wrapper for project scope and the command that runs it", async () => {
    const box = await makeSandbox();
    await run(box, "install", { client: "droid", scope: "project" });
    expect(await modeOf(join(box.project, ".factory/hooks/hook-notify.sh"))).toBe(0o755);
    expect(await readMaybe(join(box.project, ".factory/hooks.json"))).toContain(
      '"\\"$FACTORY_PROJECT_DIR\\"/.factory/hooks/hook-notify.sh --client droid --timeout 10"',
    );
  });

  it("refuses to overwrite a foreign script with the wrapper's name", async () => {
    const box = await makeSandbox({
      "project/.claude/hooks/hook-notify.sh": "#!/bin/sh\necho mine\n",
    });
    await expect(prepareInstall(request({ scope: "project" }), box.machine)).rejects.toMatchObject({
      code: "SETTINGS_CONFLICT",
    });
    const prepared = await prepareUninstall(request({ scope: "project" }), box.machine);
    expect(prepared.warnings.join()).toContain("not written by hook-notify");
  });

  it("refuses a user-scope install run through npx (npm's cache), naming the command that works", async () => {
    const box = await makeSandbox();
    box.machine.scriptPath = "/home/u/.npm/_npx/0a1b2c/node_modules/hook-notify/bin/hook-notify.js";
    const result = await run(box, "install", { scope: "user" });
    expect(result.code).toBe(2);
    expect(result.err.split("\n")).toHaveLength(1);
    expect(result.err).toContain("npx cache");
    expect(result.err).toContain("npm i -g hook-notify && hook-notify install");
    expect(await readMaybe(join(box.home, ".claude/settings.json"))).toBeUndefined();
    expect((await run(box, "install", { scope: "project" })).code).toBe(0);
  });

  it("honours --project-dir and CLAUDE_CONFIG_DIR", async () => {
    const box = await makeSandbox();
    box.machine.env = { CLAUDE_CONFIG_DIR: join(box.root, "cfg") };
    await run(box, "install", { scope: "user" });
    await run(box, "install", { scope: "local", projectDir: join(box.root, "other") });
    expect(await readMaybe(join(box.root, "cfg/settings.json"))).toContain("hook-notify.sh");
    expect(await readMaybe(join(box.root, "other/.claude/settings.local.json"))).toContain(
      "hook-notify.js",
    );
  });
});

describe("install --approve --retry", () => {
  const permissionDenied = async (
    box: Sandbox,
  ): Promise<{ hooks: { command: string; timeout: number }[] }[]> => {
    const text = await readMaybe(join(box.home, ".claude", "settings.json"));
    const parsed = JSON.parse(text!) as {
      hooks: { PermissionDenied: { hooks: { command: string; timeout: number }[] }[] };
    };
    return parsed.hooks.PermissionDenied;
  };

  it("writes the Let it retry ask beside the blocked notification (35 s), once", async () => {
    const box = await makeSandbox({ "home/.claude/.keep": "" });
    const args = { approve: { timeout: 150 }, retry: true };
    expect((await run(box, "install", args)).code).toBe(0);
    const [notify, ask] = await permissionDenied(box);
    expect(notify!.hooks[0]!.command).toMatch(/ --client claude-code --timeout 10$/);
    expect(ask!.hooks[0]).toMatchObject({ timeout: 35 });
    expect(ask!.hooks[0]!.command).toMatch(/ approve --client claude-code --timeout 35$/);
    const before = await readTree(box.root);
    const again = await run(box, "install", args);
    expect(again.code).toBe(0);
    expect(await readTree(box.root)).toEqual(before);
    expect((await run(box, "uninstall", {})).code).toBe(0);
    expect(await readMaybe(join(box.home, ".claude", "settings.json"))).toBeUndefined();
  });

  it.each([
    ["without --approve", { retry: true }, /--retry .* run install --approve --retry\.$/],
    [
      "for Codex",
      { client: "codex", approve: { timeout: 150 }, retry: true },
      /--retry: Codex has no PermissionDenied hook .*; use --client claude-code, or leave out --retry\.$/,
    ],
    [
      "with --events that leave out PermissionDenied",
      { approve: { timeout: 150 }, retry: true, events: ["Stop"] },
      /add PermissionDenied to --events, or leave out --retry\.$/,
    ],
  ] as const)("%s: a usage error naming the fix, nothing written", async (_name, args, said) => {
    const box = await makeSandbox({ "home/.claude/.keep": "", "home/.codex/.keep": "" });
    const before = await readTree(box.root);
    const result = await run(box, "install", args);
    expect(result.code).toBe(2);
    expect(result.err.split("\n")).toHaveLength(1);
    expect(result.err).toMatch(said);
    expect(await readTree(box.root)).toEqual(before);
  });
});
