import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSettings } from "../../src/doctor/settings-checks.js";
import { runSettingsCommand } from "../../src/settings/settings-command.js";
import { BIN, ROOT } from "../helpers/run-bin.js";
import { SETTINGS_ARGS } from "../settings/tree.js";
import { tempDir } from "../helpers/sink-harness.js";

function write(file: string, value: unknown): void {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
}

// After `nvm install 22`, the node that install wrote into the settings is gone.
describe("doctor: the node and script paths written into the clients' settings", () => {
  it("fails for a path that no longer exists (exec form and shell form), with the install to re-run", async () => {
    const home = tempDir("doctor-paths");
    const gone = join(home, ".nvm", "versions", "node", "v20.19.0", "bin", "node");
    const stop = (handler: Record<string, unknown>) => ({ Stop: [{ hooks: [handler] }] });
    write(join(home, ".claude", "settings.json"), {
      hooks: stop({
        type: "command",
        command: gone,
        args: [BIN, "--client", "claude-code", "--timeout", "10"],
        timeout: 10,
      }),
    });
    write(
      join(home, ".factory", "hooks.json"),
      stop({
        type: "command",
        command: `"${process.execPath}" "${join(home, "moved", "hook-notify.js")}" --client droid --timeout 10`,
        timeout: 10,
      }),
    );
    const results = await checkSettings({ home, projectDir: join(home, "project"), env: {} });
    const failed = results.filter((r) => r.status === "fail");
    expect(failed.map((r) => [r.check, r.fix])).toEqual([
      [
        "Droid (user)",
        "With the node you use now, run again: hook-notify install --client droid --scope user",
      ],
      [
        "Claude Code (user)",
        "With the node you use now, run again: hook-notify install --client claude-code --scope user",
      ],
    ]);
    expect(failed[0]?.detail).toContain(join(home, "moved", "hook-notify.js"));
    expect(failed[1]?.detail).toContain(`${gone} no longer exists`);
  });

  it("warns that an entry running node by its absolute path breaks on a node upgrade", async () => {
    const home = tempDir("doctor-paths");
    write(join(home, ".claude", "settings.json"), {
      hooks: {
        Stop: [
          {
            hooks: [
              {
                type: "command",
                command: `"${process.execPath}" "${BIN}" --client claude-code`,
                timeout: 10,
              },
            ],
          },
        ],
      },
    });
    const results = await checkSettings({ home, projectDir: join(home, "project"), env: {} });
    expect(results.filter((r) => r.status === "warn").map((r) => r.fix)).toContain(
      "Run hook-notify install --client claude-code again: its hooks then run a launcher that finds node",
    );
  });

  it("asks the launcher what it would run: ok with node and the script, or its reason", async () => {
    const home = tempDir("doctor-launcher");
    const machine = {
      home,
      projectDir: join(home, "project"),
      env: { PATH: "/usr/bin:/bin" },
      platform: process.platform,
      nodePath: process.execPath,
      packageRoot: ROOT,
      scriptPath: BIN,
    };
    const args = { ...SETTINGS_ARGS, client: "claude-code" as const };
    const io = { machine, out: () => undefined, err: () => undefined };
    expect(await runSettingsCommand("install", args, io)).toBe(0);
    const launcher = join(home, ".local/share/hook-notify/launchers/claude-code/hook-notify.sh");
    const input = { home, projectDir: machine.projectDir, env: machine.env };
    const fine = (await checkSettings(input)).filter((r) => r.check === "Claude Code (user)");
    expect(fine.map((r) => r.status)).not.toContain("fail");
    expect(fine.map((r) => r.detail)).toContain(
      `~/.local/share/hook-notify/launchers/claude-code/hook-notify.sh runs ${BIN} with ${process.execPath}`,
    );
    const text = readFileSync(launcher, "utf8");
    writeFileSync(launcher, text.replace(/^script=.*$/m, `script='${join(home, "gone.js")}'`));
    const broken = (await checkSettings(input)).filter((r) => r.status === "fail");
    expect(broken).toHaveLength(1);
    expect(broken[0]?.detail).toContain(`${join(home, "gone.js")} is gone`);
    expect(broken[0]?.fix).toBe("npm i -g hook-notify, then: hook-notify install");
  });

  it("fails nothing about paths that exist", async () => {
    const home = tempDir("doctor-paths");
    write(join(home, ".claude", "settings.json"), {
      hooks: {
        Stop: [
          {
            hooks: [
              {
                type: "command",
                command: `"${process.execPath}" "${BIN}" --client claude-code`,
                timeout: 10,
              },
            ],
          },
        ],
      },
    });
    const results = await checkSettings({ home, projectDir: join(home, "project"), env: {} });
    expect(results.filter((r) => r.status === "fail")).toEqual([]);
  });
});

// Gemini CLI counts hook timeouts in milliseconds; doctor speaks seconds for every client.
describe("doctor: entry timeouts in the client's own unit", () => {
  it("shows Gemini's 10000 ms as 10 s, and Claude Code's 10 as 10 s", async () => {
    const home = tempDir("doctor-units");
    const entry = (client: string, timeout: number) => ({
      hooks: [
        {
          type: "command",
          command: `"${process.execPath}" "${BIN}" --client ${client} --timeout 10`,
          timeout,
        },
      ],
    });
    write(join(home, ".gemini", "settings.json"), {
      hooks: { AfterAgent: [entry("gemini", 10_000)] },
    });
    write(join(home, ".claude", "settings.json"), {
      hooks: { Stop: [entry("claude-code", 10)] },
    });
    const results = await checkSettings({ home, projectDir: join(home, "project"), env: {} });
    const detail = (check: string) => results.find((r) => r.check === check)?.detail ?? "";
    expect(detail("Gemini CLI (user)")).toContain("AfterAgent 10 s");
    expect(detail("Gemini CLI (user)")).not.toContain("10000");
    expect(detail("Claude Code (user)")).toContain("Stop 10 s");
  });

  it("shows the timeout of every entry of an event (PermissionDenied: notification and retry ask)", async () => {
    const home = tempDir("doctor-two-entries");
    const hook = (args: string, timeout: number) => ({
      type: "command",
      command: `"${process.execPath}" "${BIN}" ${args}`,
      timeout,
    });
    write(join(home, ".claude", "settings.json"), {
      hooks: {
        PermissionDenied: [
          { hooks: [hook("--client claude-code --timeout 10", 10)] },
          { hooks: [hook("approve --client claude-code --timeout 35", 35)] },
        ],
      },
    });
    const results = await checkSettings({ home, projectDir: join(home, "project"), env: {} });
    const detail = results.find((r) => r.check === "Claude Code (user)")?.detail ?? "";
    expect(detail).toContain("PermissionDenied 10 s and 35 s");
  });
});
