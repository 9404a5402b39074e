// The command strings install writes, run the way the clients run them on macOS and Linux
// (`sh -c`, and bash), with node and the script in folders whose names hold spaces, quotes, $
// and backticks.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runSettingsCommand } from "../../src/settings/settings-command.js";
import { findPackageRoot } from "../../src/settings/load-template.js";
import { findProgram } from "../../src/sinks/find-program.js";
import { BIN, fixture, handedOverRun, tempHome } from "../helpers/run-bin.js";
import { SETTINGS_ARGS } from "../settings/tree.js";

const SHELLS = ["sh", "bash"].filter((name) => findProgram(name, process.env, process.platform));
const isPosix = process.platform !== "win32";

function runShell(shell: string, command: string, env: Record<string, string | undefined>) {
  const child = spawn(shell, ["-c", command], { env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  // The hook may be done with stdin (it read the whole event) before this end's shutdown lands on
  // a loaded machine: an EPIPE then is the pipe's, not the hook's (run-bin.ts does the same).
  child.stdin.on("error", () => undefined);
  child.stdin.end(fixture("claude-code/Stop.json"));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on("close", (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}

describe.runIf(isPosix)("installed commands run through sh and bash", () => {
  it.each(["claude-code", "droid"] as const)(
    "%s: node and the script under hostile folder names start hook-notify (through the launcher)",
    async (client) => {
      const home = tempHome({ HOOK_NOTIFY_LOCAL_SINKS: "0" });
      const weird = join(home.dir, `node dir "q" $HOME \`id\` it's`);
      const pkg = join(home.dir, `pkg $PATH 'x' "y" dir`);
      mkdirSync(weird);
      mkdirSync(pkg);
      symlinkSync(process.execPath, join(weird, "node"));
      symlinkSync(BIN, join(pkg, "hook-notify.cjs"));
      const machine = {
        home: home.dir,
        projectDir: home.dir,
        env: {},
        platform: process.platform,
        nodePath: join(weird, "node"),
        packageRoot: findPackageRoot(),
        scriptPath: join(pkg, "hook-notify.cjs"),
      };
      const code = await runSettingsCommand(
        "install",
        { ...SETTINGS_ARGS, client },
        { machine, out: () => undefined, err: () => undefined },
      );
      expect(code).toBe(0);
      const file =
        client === "droid"
          ? join(home.dir, ".factory", "hooks.json")
          : join(home.dir, ".claude", "settings.json");
      const json = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
      const map = (client === "droid" ? json : json.hooks) as Record<
        string,
        { hooks: { command: string }[] }[]
      >;
      const command = map.Stop?.[0]?.hooks[0]?.command ?? "";
      // The hooks run the launcher, which recorded node and the script under their hostile names.
      const launcher = join(
        home.dir,
        ".local/share/hook-notify/launchers",
        client,
        "hook-notify.sh",
      );
      expect(command).toBe(`"${launcher}" --client ${client} --timeout 10`);
      const check = await runShell("/bin/sh", command, {
        ...home.env,
        HOOK_NOTIFY_LAUNCHER: "check",
      });
      expect(check).toEqual({
        code: 0,
        stdout: "",
        stderr: `node ${join(weird, "node")}\nscript ${join(pkg, "hook-notify.cjs")}\n`,
      });
      for (const [index, shell] of SHELLS.entries()) {
        const result = await runShell(shell, command, home.env);
        await handedOverRun(home.env);
        expect({ shell, ...result }).toEqual({ shell, code: 0, stdout: "", stderr: "" });
        expect(home.logLines()).toHaveLength(index + 1);
        expect(home.logLines()[index]).toMatchObject({ client, event: "Stop" });
      }
    },
  );
});
