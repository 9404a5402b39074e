import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runSettingsCommand } from "../../src/settings/settings-command.js";
import { findPackageRoot } from "../../src/settings/load-template.js";
import { makeSandbox, makeTree } from "../settings/tree.js";

const WRAPPER = join(findPackageRoot(), "hooks-templates", "hook-notify.sh");
const SHELLS = ["/bin/sh", "/bin/bash", "/bin/dash"].filter((shell) => existsSync(shell));

// A fake hook-notify that records its argv (one per line) and stdin, then exits $FAKE_EXIT.
const FAKE = `#!/bin/sh
for arg in "$@"; do printf '%s\\n' "$arg"; done > "$FAKE_LOG.argv"
/bin/cat > "$FAKE_LOG.stdin"
echo "fake stderr" >&2
exit "\${FAKE_EXIT:-0}"
`;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runShell(
  shell: string,
  args: string[],
  env: Record<string, string>,
  input: string,
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(shell, args, { env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    // The wrapper may exit before reading stdin (no hook-notify): that EPIPE is expected.
    child.stdin.on("error", () => undefined);
    child.on("close", (code) => {
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

async function setup() {
  const dir = await makeTree();
  await mkdir(join(dir, "bin"));
  await mkdir(join(dir, "empty"));
  await writeFile(join(dir, "bin", "hook-notify"), FAKE);
  await chmod(join(dir, "bin", "hook-notify"), 0o755);
  const script = join(dir, "project dir", "hook-notify.sh");
  await mkdir(join(dir, "project dir"));
  await copyFile(WRAPPER, script);
  await chmod(script, 0o755);
  return { dir, script, log: join(dir, "log"), fakeBin: join(dir, "bin", "hook-notify") };
}

const EVENT = '{"hook_event_name":"Stop","session_id":"s1"}';
const ARGS = ["--client", "droid", "--timeout", "10", 'it\'s "quoted" $HOME'];

describe.each(SHELLS)("the wrapper under %s", (shell) => {
  it("runs hook-notify from PATH with the same argv and stdin, adding nothing to stdout", async () => {
    const t = await setup();
    const ran = await runShell(
      shell,
      [t.script, ...ARGS],
      { PATH: join(t.dir, "bin"), FAKE_LOG: t.log },
      EVENT,
    );
    expect(ran).toEqual({ code: 0, stdout: "", stderr: "fake stderr\n" });
    expect((await readFile(t.log + ".argv", "utf8")).split("\n").slice(0, -1)).toEqual(ARGS);
    expect(await readFile(t.log + ".stdin", "utf8")).toBe(EVENT);
  });

  it("exits 0 without a word when hook-notify is not installed", async () => {
    const t = await setup();
    const ran = await runShell(shell, [t.script, ...ARGS], { PATH: join(t.dir, "empty") }, EVENT);
    expect(ran).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("prefers HOOK_NOTIFY_BIN, and ignores one that does not exist", async () => {
    const t = await setup();
    const env = { PATH: join(t.dir, "empty"), FAKE_LOG: t.log };
    const found = await runShell(
      shell,
      [t.script, "x"],
      { ...env, HOOK_NOTIFY_BIN: t.fakeBin },
      EVENT,
    );
    expect(found.code).toBe(0);
    expect(await readFile(t.log + ".argv", "utf8")).toBe("x\n");
    const missing = await runShell(
      shell,
      [t.script],
      { ...env, HOOK_NOTIFY_BIN: join(t.dir, "nope") },
      EVENT,
    );
    expect(missing).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it.each([
    [0, 0],
    [1, 1],
    [2, 1],
    [3, 3],
  ])("turns hook-notify's exit %i into %i (never 2)", async (exit, expected) => {
    const t = await setup();
    const env = { PATH: join(t.dir, "bin"), FAKE_LOG: t.log, FAKE_EXIT: String(exit) };
    expect((await runShell(shell, [t.script], env, EVENT)).code).toBe(expected);
  });
});

describe.each([
  ["droid", "FACTORY_PROJECT_DIR", ".factory/hooks.json"],
  ["claude-code", "CLAUDE_PROJECT_DIR", ".claude/settings.json"],
] as const)("the installed %s project command", (client, variable, file) => {
  it("runs the written wrapper through the client's project variable, in a folder with spaces", async () => {
    const box = await makeSandbox();
    const project = join(box.root, "my project");
    await runSettingsCommand(
      "install",
      {
        client,
        scope: "project",
        events: ["Stop"],
        timeout: undefined,
        projectDir: project,
        dryRun: false,
        yes: true,
        fixJsonc: false,
      },
      { machine: box.machine, out: () => undefined, err: () => undefined },
    );
    const json = JSON.parse(await readFile(join(project, file), "utf8")) as Record<string, unknown>;
    const map = (client === "droid" ? json : json["hooks"]) as Record<
      string,
      { hooks: { command: string }[] }[]
    >;
    const command = map["Stop"]![0]!.hooks[0]!.command;
    const t = await setup();
    const env = {
      PATH: `${join(t.dir, "bin")}:/usr/bin:/bin`,
      FAKE_LOG: t.log,
      [variable]: project,
    };
    const ran = await runShell("/bin/sh", ["-c", command], env, EVENT);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe("");
    expect(await readFile(t.log + ".argv", "utf8")).toBe(`--client\n${client}\n--timeout\n10\n`);
    expect(await readFile(t.log + ".stdin", "utf8")).toBe(EVENT);
  });
});
