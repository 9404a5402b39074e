import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeSandbox, readMaybe, runSettings } from "./tree.js";

// uninstall gives back what was there before install: only what hook-notify added goes.

const FOREIGN = { type: "command", command: "notify-send done", timeout: 5 };
const pretty = (value: unknown): string => JSON.stringify(value, null, 2) + "\n";

const run = runSettings;

const CLAUDE = { args: { client: "claude-code" }, path: "home/.claude/settings.json" } as const;
const DROID = { args: { client: "droid" }, path: "home/.factory/hooks.json" } as const;

// What a user may have had before install, for Claude Code's settings.json and Droid's hooks.json.
const BEFORE = [
  ["an empty object", CLAUDE, "{}\n"],
  ["an empty object (droid)", DROID, "{}\n"],
  ["an empty file", CLAUDE, ""],
  ['"hooks": {}', CLAUDE, pretty({ hooks: {} })],
  ['"SessionEnd": [] and "Stop": []', CLAUDE, pretty({ hooks: { SessionEnd: [], Stop: [] } })],
  ['"SessionEnd": [] (droid)', DROID, pretty({ SessionEnd: [], Notification: [] })],
  [
    "empty lists beside foreign hooks",
    CLAUDE,
    pretty({ model: "opus", hooks: { Stop: [], SessionEnd: [{ hooks: [FOREIGN] }] } }),
  ],
  ["a minified file with an empty list", CLAUDE, '{"hooks":{"Stop":[]}}'],
] as const;

describe("uninstall gives back what was there", () => {
  it.each(BEFORE)("%s: the file comes back byte for byte", async (_name, where, original) => {
    const box = await makeSandbox({ [where.path]: original });
    const file = join(box.root, where.path);
    expect((await run(box, "install", where.args)).code).toBe(0);
    expect(await readMaybe(file)).not.toBe(original);
    const removed = await run(box, "uninstall", where.args);
    expect(removed.err).toBe("");
    expect(removed.code).toBe(0);
    expect(await readMaybe(file)).toBe(original);
    expect(await readMaybe(`${file}.bak`)).toBeUndefined(); // it holds nothing more: gone
  });

  it("also after an update in between: the .bak from before install is kept", async () => {
    const original = pretty({ hooks: { SessionEnd: [] } });
    const box = await makeSandbox({ [CLAUDE.path]: original });
    const file = join(box.root, CLAUDE.path);
    expect((await run(box, "install", CLAUDE.args)).code).toBe(0);
    box.machine.scriptPath = "/opt/hook-notify-2/bin/hook-notify.js";
    const updated = await run(box, "install", CLAUDE.args);
    expect(updated.out).toContain("updated");
    expect(await readMaybe(`${file}.bak`)).toBe(original);
    expect((await run(box, "uninstall", CLAUDE.args)).code).toBe(0);
    expect(await readMaybe(file)).toBe(original);
  });

  it("keeps install's .bak when the file changed in other ways since (it still holds the old state)", async () => {
    const original = pretty({ model: "opus", hooks: { Stop: [{ hooks: [FOREIGN] }] } });
    const box = await makeSandbox({ [CLAUDE.path]: original });
    const file = join(box.root, CLAUDE.path);
    expect((await run(box, "install", CLAUDE.args)).code).toBe(0);
    const installed = JSON.parse((await readMaybe(file))!) as Record<string, unknown>;
    await writeFile(file, pretty({ ...installed, model: "sonnet" }));
    expect((await run(box, "uninstall", CLAUDE.args)).code).toBe(0);
    expect(await readMaybe(`${file}.bak`)).toBe(original);
  });

  it("removes a file install created, once nothing else is in it", async () => {
    const box = await makeSandbox();
    const file = join(box.root, CLAUDE.path);
    expect((await run(box, "install", CLAUDE.args)).code).toBe(0);
    expect(await readMaybe(file)).toBeDefined();
    expect((await run(box, "uninstall", CLAUDE.args)).code).toBe(0);
    expect(await readMaybe(file)).toBeUndefined();
  });

  it("prunes the containers install created, and keeps what the user added since", async () => {
    const box = await makeSandbox({ [CLAUDE.path]: pretty({ model: "opus" }) });
    const file = join(box.root, CLAUDE.path);
    expect((await run(box, "install", CLAUDE.args)).code).toBe(0);
    const installed = JSON.parse((await readMaybe(file))!) as Record<string, unknown>;
    await writeFile(file, pretty({ ...installed, permissions: { allow: [] } }));
    expect((await run(box, "uninstall", CLAUDE.args)).code).toBe(0);
    expect(JSON.parse((await readMaybe(file))!)).toEqual({
      model: "opus",
      permissions: { allow: [] },
    });
  });
});
