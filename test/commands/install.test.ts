import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import yargs from "yargs";
import { installCommand } from "../../src/commands/install.js";
import { withSettingsFlags } from "../../src/commands/settings-flags.js";
import { uninstallCommand } from "../../src/commands/uninstall.js";
import { makeSandbox } from "../settings/tree.js";

// Runs a command module through yargs the way cli.ts registers it, with HOME in a temp folder.
async function runCli(
  argv: string[],
  home: string,
): Promise<{ out: string; err: string; exitCode: unknown }> {
  vi.stubEnv("HOME", home);
  vi.stubEnv("XDG_DATA_HOME", join(home, ".local/share"));
  onTestFinished(() => {
    vi.unstubAllEnvs();
    process.exitCode = undefined;
  });
  const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  const err = vi.spyOn(console, "error").mockImplementation(() => undefined);
  process.exitCode = undefined;
  await yargs(argv).command(installCommand).command(uninstallCommand).strict().parseAsync();
  const exitCode = process.exitCode;
  process.exitCode = undefined;
  return {
    out: out.mock.calls.map((call) => String(call[0])).join(""),
    err: err.mock.calls.map((call) => String(call[0])).join("\n"),
    exitCode,
  };
}

describe("install and uninstall commands", () => {
  it("are yargs command modules named install and uninstall", () => {
    expect(installCommand.command).toBe("install");
    expect(uninstallCommand.command).toBe("uninstall");
    expect(typeof installCommand.handler).toBe("function");
  });

  it("parse repeated and comma-separated --events, and the defaults", () => {
    const args = withSettingsFlags(
      yargs(["--events", "Stop, SessionEnd", "--events", "Notification", "-y"]),
    ).parseSync();
    expect(args.events).toEqual(["Stop", "SessionEnd", "Notification"]);
    expect(args.scope).toBe("user");
    expect(args.yes).toBe(true);
    expect(args["dry-run"]).toBe(false);
  });

  it("install, a second install and uninstall work end to end through yargs", async () => {
    const box = await makeSandbox();
    const argv = ["--client", "claude-code", "--project-dir", box.project, "-y"];
    const dry = await runCli(["install", ...argv, "--dry-run"], box.home);
    expect(dry.out).toContain("Dry run");
    expect(dry.exitCode).toBeUndefined();
    const first = await runCli(["install", ...argv], box.home);
    expect(first.out).toContain("Next: open /hooks in Claude Code");
    expect(first.exitCode).toBeUndefined();
    const settings = JSON.parse(
      await readFile(join(box.home, ".claude/settings.json"), "utf8"),
    ) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    const command = settings.hooks["Stop"]![0]!.hooks[0]!.command;
    const launcher = join(
      box.home,
      ".local/share/hook-notify/launchers/claude-code/hook-notify.sh",
    );
    expect(command).toBe(`"${launcher}" --client claude-code --timeout 10`);
    const recorded = await readFile(launcher, "utf8");
    expect(recorded).toContain(`node='${process.execPath}'`);
    expect(recorded).toMatch(/^script='\/.*\/bin\/hook-notify\.cjs'$/m);
    expect((await runCli(["install", ...argv], box.home)).out).toContain("No change");
    const removed = await runCli(["uninstall", ...argv], box.home);
    expect(removed.out).toContain("Stop: removed");
    await expect(readFile(launcher, "utf8")).rejects.toThrow();
  });

  it("prints one line per error on stderr and sets exit code 1", async () => {
    const box = await makeSandbox({ "home/.claude/settings.json": "{ broken" });
    const result = await runCli(["install", "--client", "claude-code"], box.home);
    expect(result.exitCode).toBe(1);
    expect(result.out).toBe("");
    expect(result.err).toMatch(
      /^hook-notify install: ~\/\.claude\/settings\.json: invalid JSON at line 1/,
    );
  });
});
