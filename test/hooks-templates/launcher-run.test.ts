import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadLauncher, findPackageRoot } from "../../src/settings/load-template.js";
import { renderLauncher } from "../../src/settings/launcher.js";
import { makeTree } from "../settings/tree.js";

// A fake hook-notify (run by the node the launcher found): records argv, stdin and
// process.execPath, prints to stderr only, exits with $FAKE_EXIT.
const FAKE = `const fs = require("node:fs");
const input = fs.readFileSync(0, "utf8");
fs.writeFileSync(process.env.FAKE_LOG, JSON.stringify({ argv: process.argv.slice(2), input, node: process.execPath }));
process.stderr.write("fake stderr\\n");
process.exit(Number(process.env.FAKE_EXIT ?? 0));
`;

// The programs the launcher's shell needs besides its builtins, and nothing else (no node).
const TOOLS = ["sh", "sed", "date", "mkdir", "cat", "dirname"];

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(launcher: string, args: string[], env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(launcher, args, { env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.stdin.on("error", () => undefined);
    child.on("close", (code) => {
      resolve({ code, stdout, stderr });
    });
    child.stdin.end('{"hook_event_name":"Stop"}');
  });
}

// A home, a fake package (its path has a space and a quote) and a launcher recording `node`;
// PATH holds only the shell's tools. The system's own node locations are hidden from the launcher.
async function setup(node: string) {
  const dir = await makeTree();
  const home = join(dir, "home");
  const tools = join(dir, "tools");
  await mkdir(home);
  await mkdir(tools);
  for (const tool of TOOLS) {
    const found = ["/bin", "/usr/bin"].map((d) => join(d, tool)).find((p) => existsSync(p));
    if (found) await symlink(found, join(tools, tool));
  }
  const pkg = join(dir, "it's a package");
  await mkdir(join(pkg, "bin"), { recursive: true });
  const script = join(pkg, "bin", "hook-notify.cjs");
  await writeFile(script, FAKE);
  const template = (await loadLauncher(findPackageRoot())).replace(
    /^system=.*$/m,
    `system='${join(dir, "no-such-node")}'`,
  );
  const launcher = join(home, "launcher", "hook-notify.sh");
  await mkdir(join(home, "launcher"));
  await writeFile(launcher, renderLauncher(template, node, script));
  await chmod(launcher, 0o755);
  const log = join(dir, "fake.json");
  const env = { HOME: home, PATH: tools, FAKE_LOG: log };
  const ran = async () => JSON.parse(await readFile(log, "utf8")) as Record<string, unknown>;
  const runLog = async () =>
    (await readFile(join(home, ".local/state/hook-notify/log.ndjson"), "utf8"))
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { error: { code: string; message: string } });
  return { dir, home, tools, script, launcher, env, ran, runLog };
}

describe.runIf(process.platform !== "win32")("the user-scope launcher", () => {
  it("runs the recorded node and script with the hook's arguments and stdin; 2 becomes 1", async () => {
    const box = await setup(process.execPath);
    const result = await run(box.launcher, ["--client", "claude-code", "--timeout", "10"], box.env);
    expect(result).toEqual({ code: 0, stdout: "", stderr: "fake stderr\n" });
    expect(await box.ran()).toEqual({
      argv: ["--client", "claude-code", "--timeout", "10"],
      input: '{"hook_event_name":"Stop"}',
      node: process.execPath,
    });
    expect((await run(box.launcher, [], { ...box.env, FAKE_EXIT: "2" })).code).toBe(1);
    expect((await run(box.launcher, [], { ...box.env, FAKE_EXIT: "3" })).code).toBe(3);
  });

  // Issue 38 (redteam F5): `$'`, `$&` and `$$` are String.replace patterns; a path is written
  // literally, and the launcher still runs (a broken one would exit 2 on every hook).
  it("a node path holding $', $& and $$ is written literally and runs", async () => {
    const dir = await makeTree();
    const odd = join(dir, "nd$'x$&y$$z$`w");
    await mkdir(odd);
    await symlink(process.execPath, join(odd, "node"));
    const rendered = renderLauncher("node=''\nscript=''\n", join(odd, "node"), "/p/$&/$'.cjs");
    expect(rendered).toBe(
      `node='${join(dir, "nd$'\\''x$&y$$z$`w")}/node'\nscript='/p/$&/$'\\''.cjs'\n`,
    );
    const box = await setup(join(odd, "node"));
    const result = await run(box.launcher, ["--client", "claude-code"], box.env);
    expect(result).toEqual({ code: 0, stdout: "", stderr: "fake stderr\n" });
    expect((await box.ran())["argv"]).toEqual(["--client", "claude-code"]);
  });

  it("after a node upgrade (the recorded node gone) finds node on PATH", async () => {
    const box = await setup(join("/gone", "v20.19.0", "bin", "node"));
    await symlink(process.execPath, join(box.tools, "node"));
    const result = await run(box.launcher, ["--client", "droid"], box.env);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect((await box.ran())["argv"]).toEqual(["--client", "droid"]);
  });

  it.each([
    ["volta", ".volta/bin/node"],
    ["fnm", ".local/share/fnm/aliases/default/bin/node"],
    ["nvm", ".nvm/versions/node/v22.1.0/bin/node"],
  ])("with a short PATH (a GUI client) finds %s's node", async (_name, place) => {
    const box = await setup("/gone/node");
    await mkdir(join(box.home, place, ".."), { recursive: true });
    await symlink(process.execPath, join(box.home, place));
    const result = await run(box.launcher, ["--client", "codex"], box.env);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect((await box.ran())["argv"]).toEqual(["--client", "codex"]);
  });

  it("with no node anywhere: exit 0, nothing on stdout, one line on stderr and in the log", async () => {
    const box = await setup("/gone/node");
    const result = await run(box.launcher, ["--client", "claude-code"], box.env);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^hook-notify: no Node\.js 20\.19 or later found .*\/gone\/node/);
    expect(result.stderr).toContain("hook-notify install");
    const [line, ...more] = await box.runLog();
    expect(more).toEqual([]);
    expect(line?.error.code).toBe("LAUNCHER_NO_NODE");
    expect(line?.error.message).toContain("/gone/node");
  });

  it("with the package gone: exit 0, one line naming it and the fix; a hook-notify on PATH is used instead", async () => {
    const box = await setup(process.execPath);
    const moved = join(box.dir, "elsewhere.js");
    await writeFile(moved, FAKE, { mode: 0o755 });
    await rm(box.script);
    const result = await run(box.launcher, [], box.env);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(result.stderr).toContain(`${box.script} is gone`);
    expect(result.stderr).toContain("npm i -g hook-notify && hook-notify install");
    expect((await box.runLog())[0]?.error.code).toBe("LAUNCHER_NO_PACKAGE");
    await symlink(moved, join(box.tools, "hook-notify")); // as npm links its bin
    const again = await run(box.launcher, ["--client", "gemini"], box.env);
    expect(again).toMatchObject({ code: 0, stdout: "" });
    expect((await box.ran())["argv"]).toEqual(["--client", "gemini"]);
  });

  it("not filled in (the copy inside the package that the Claude Code plugin runs): runs that package's bin", async () => {
    const box = await setup(process.execPath);
    const copy = join(box.script, "..", "..", "hooks-templates", "launcher.sh");
    await mkdir(join(copy, ".."));
    const template = (await loadLauncher(findPackageRoot())).replace(
      /^system=.*$/m,
      `system='${process.execPath}'`,
    );
    await writeFile(copy, template);
    const result = await run("/bin/sh", [copy, "--client", "claude-code"], box.env);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(await box.ran()).toMatchObject({ argv: ["--client", "claude-code"] });
  });

  it("HOOK_NOTIFY_LAUNCHER=check says which node and script it would run, on stderr, and runs nothing", async () => {
    const box = await setup(process.execPath);
    const result = await run(box.launcher, [], { ...box.env, HOOK_NOTIFY_LAUNCHER: "check" });
    expect(result).toEqual({
      code: 0,
      stdout: "",
      stderr: `node ${process.execPath}\nscript ${box.script}\n`,
    });
    expect(existsSync(join(box.dir, "fake.json"))).toBe(false);
  });
});
