import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isOurHandler } from "../../src/settings/jsonc-edit.js";
import { makeSandbox, readMaybe, type Sandbox, runSettings } from "./tree.js";

const NODE = "C:\\Program Files\\nodejs\\node.exe";
const SCRIPT =
  "C:\\Users\\Zoë O'Neil\\AppData\\Roaming\\npm\\node_modules\\hook-notify\\bin\\hook-notify.js";

// A sandbox that install sees as a Windows machine with node and the script in their usual places.
async function windowsBox(): Promise<Sandbox> {
  const box = await makeSandbox();
  box.machine = { ...box.machine, platform: "win32", nodePath: NODE, scriptPath: SCRIPT };
  return box;
}

const run = runSettings;

type Handlers = Record<string, { hooks: Record<string, unknown>[] }[]>;

describe("install on Windows", () => {
  it("writes Claude Code entries in exec form: node.exe as command, script and flags as args", async () => {
    const box = await windowsBox();
    expect((await run(box, "install", { client: "claude-code" })).code).toBe(0);
    const file = join(box.home, ".claude", "settings.json");
    const hooks = (JSON.parse((await readMaybe(file)) ?? "{}") as { hooks: Handlers }).hooks;
    expect(hooks.Stop?.[0]?.hooks).toEqual([
      {
        type: "command",
        command: NODE,
        args: [SCRIPT, "--client", "claude-code", "--timeout", "10"],
        timeout: 10,
      },
    ]);
    expect(hooks.SessionEnd?.[0]?.hooks[0]?.args).toEqual([
      SCRIPT,
      "--client",
      "claude-code",
      "--timeout",
      "5",
    ]);
  });

  it("recognises its exec-form entries: a second install changes nothing, uninstall removes them all", async () => {
    const box = await windowsBox();
    await run(box, "install", { client: "claude-code" });
    const file = join(box.home, ".claude", "settings.json");
    const first = await readMaybe(file);
    const again = await run(box, "install", { client: "claude-code" });
    expect(again.code).toBe(0);
    expect(await readMaybe(file)).toBe(first);
    expect((await run(box, "uninstall", { client: "claude-code" })).code).toBe(0);
    expect(await readMaybe(file)).toBeUndefined();
  });

  it("turns an older shell-form entry into exec form in place, and back on another OS", async () => {
    const box = await windowsBox();
    const file = join(box.home, ".claude", "settings.json");
    const linux = { ...box.machine, platform: "linux" as const, nodePath: "/usr/bin/node" };
    await run(
      { ...box, machine: { ...linux, scriptPath: "/opt/hn/bin/hook-notify.js" } },
      "install",
      {
        client: "claude-code",
      },
    );
    await run(box, "install", { client: "claude-code" });
    const stop = () =>
      (JSON.parse(readFileSync(file, "utf8")) as { hooks: Handlers }).hooks.Stop?.[0]?.hooks ?? [];
    const windows = stop();
    expect(windows).toHaveLength(1);
    expect(windows[0]).toMatchObject({
      command: NODE,
      args: [SCRIPT, "--client", "claude-code", "--timeout", "10"],
    });
    await run(
      { ...box, machine: { ...linux, scriptPath: "/opt/hn/bin/hook-notify.js" } },
      "install",
      {
        client: "claude-code",
      },
    );
    const back = stop();
    expect(back).toEqual([
      {
        type: "command",
        command: `"${join(box.home, ".local/share/hook-notify/launchers/claude-code/hook-notify.sh")}" --client claude-code --timeout 10`,
        timeout: 10,
      },
    ]);
  });

  it("writes Droid's command for cmd.exe: starts with @, both paths quoted", async () => {
    const box = await windowsBox();
    expect((await run(box, "install", { client: "droid" })).code).toBe(0);
    const file = join(box.home, ".factory", "hooks.json");
    const hooks = JSON.parse((await readMaybe(file)) ?? "{}") as Handlers;
    const handler = hooks.Stop?.[0]?.hooks[0];
    expect(handler).toEqual({
      type: "command",
      command: `@"${NODE}" "${SCRIPT}" --client droid --timeout 10`,
      timeout: 10,
    });
    expect(isOurHandler(handler)).toBe(true);
    expect((await run(box, "uninstall", { client: "droid" })).code).toBe(0);
    expect(await readMaybe(file)).toBeUndefined();
  });

  it("refuses a path with % for Droid (cmd.exe would expand it), writing nothing", async () => {
    const box = await windowsBox();
    box.machine = { ...box.machine, scriptPath: "C:\\tools\\100%\\hook-notify.js" };
    const result = await run(box, "install", { client: "droid" });
    expect(result.code).toBe(2);
    expect(result.err).toContain('would expand the "%"');
    expect(await readMaybe(join(box.home, ".factory", "hooks.json"))).toBeUndefined();
  });

  it.each(["droid", "claude-code"] as const)(
    "refuses --scope project for %s with a clear message, writing nothing",
    async (client) => {
      const box = await windowsBox();
      const result = await run(box, "install", { client, scope: "project" });
      expect(result.code).toBe(2);
      expect(result.err).toContain("--scope project is not available on Windows");
      expect(await readMaybe(join(box.project, ".claude", "settings.json"))).toBeUndefined();
      expect(await readMaybe(join(box.project, ".factory", "hooks.json"))).toBeUndefined();
    },
  );
});
