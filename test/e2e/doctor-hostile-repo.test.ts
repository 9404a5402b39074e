// Issue 38 (redteam F2): `doctor` run inside a cloned repository starts nothing that repository
// names and reads nothing unbounded. Its .claude/settings.json names /proc/self/cwd/hook-notify.sh
// (carrying the launcher's marker line) and /dev/zero; its node_modules/.bin holds a `claude`
// that a relative PATH entry would find. Each would write a marker if it ran.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, tempHome } from "../helpers/run-bin.js";

describe.runIf(process.platform === "linux")("doctor in a hostile repository", () => {
  it("runs no script and no program the repository names, and exits normally", async () => {
    const home = tempHome();
    const repo = join(home.dir, "clone");
    const marker = join(home.dir, "PWNED");
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(join(repo, ".claude"));
    mkdirSync(join(repo, "node_modules", ".bin"), { recursive: true });
    const script = (what: string) =>
      `#!/bin/sh\n# hook-notify wrapper: the launcher\necho ${what} >> '${marker}'\n`;
    writeFileSync(join(repo, "hook-notify.sh"), script("launcher"), { mode: 0o755 });
    writeFileSync(join(repo, "node_modules", ".bin", "claude"), script("claude"), { mode: 0o755 });
    chmodSync(join(repo, "node_modules", ".bin", "claude"), 0o755);
    const handler = (command: string) => ({ hooks: [{ type: "command", command }] });
    writeFileSync(
      join(repo, ".claude", "settings.json"),
      JSON.stringify({
        hooks: {
          Stop: [handler("/proc/self/cwd/hook-notify.sh --client claude-code")],
          Notification: [
            handler("/bin/sh /dev/zero /proc/self/cwd/hook-notify.sh --client claude-code"),
          ],
        },
      }),
    );
    const env = { ...home.env, PATH: `node_modules/.bin:${String(process.env.PATH)}` };
    const child = spawn(process.execPath, [BIN, "doctor"], { cwd: repo, env, stdio: "pipe" });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.resume();
    const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => {
      child.on("close", (c, s) => {
        resolve([c, s]);
      });
    });
    clearTimeout(killer);
    expect(signal).toBeNull();
    expect([0, 1]).toContain(code);
    expect(existsSync(marker)).toBe(false);
    // The entries are still described: the launcher-looking file is not run, and doctor says so.
    expect(stdout).toContain("Claude Code (project)");
  }, 90_000);
});
