import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasScript, runOnPty } from "../helpers/pty.js";
import { tempHome } from "../helpers/run-bin.js";

const ESC = "\u001b";

// readline's own cursor codes (ESC[1G, ESC[0J, ESC[<n>G) shown as text: the garbled prompt.
const INERT_CURSOR = /\\u001b\[\d*[GJK]/;

describe.runIf(hasScript)("prompts on a real terminal", () => {
  it("install: a clean 'Apply these changes?', and after y the diff is not shown again", async () => {
    const home = tempHome();
    mkdirSync(join(home.dir, ".claude"));
    const run = await runOnPty(["install", "--client", "claude-code"], home.env, [
      { after: "Apply these changes? [y/N] ", send: "y\r" },
    ]);
    expect(run.code).toBe(0);
    expect(run.screen).not.toMatch(INERT_CURSOR);
    expect(run.screen).toMatch(
      new RegExp(`${ESC}\\[1G${ESC}\\[0JApply these changes\\? \\[y/N\\] `),
    );
    expect(run.screen.split('"Stop": [').length - 1).toBe(1);
    expect(run.screen).toContain("Wrote ~/.claude/settings.json");
    const written = readFileSync(join(home.dir, ".claude", "settings.json"), "utf8");
    expect(written).toContain('"Stop"');
  });

  it("install: anything but y writes nothing", async () => {
    const home = tempHome();
    mkdirSync(join(home.dir, ".claude"));
    const run = await runOnPty(["install", "--client", "claude-code"], home.env, [
      { after: "Apply these changes? [y/N] ", send: "n\r" },
    ]);
    expect(run.code).toBe(1);
    expect(run.screen).not.toMatch(INERT_CURSOR);
    expect(run.screen).toContain("Nothing was written.");
  });

  it("Ctrl-C at a question exits 130 with no usage hint, and writes nothing", async () => {
    const home = tempHome();
    mkdirSync(join(home.dir, ".claude"));
    const install = await runOnPty(["install", "--client", "claude-code"], home.env, [
      { after: "Apply these changes? [y/N] ", send: "\u0003" },
    ]);
    expect(install.code).toBe(130);
    expect(install.screen).not.toContain("--help");
    expect(existsSync(join(home.dir, ".claude", "settings.json"))).toBe(false);
    const init = await runOnPty(["init"], home.env, [{ after: "Which sinks?", send: "\u0003" }]);
    expect(init.code).toBe(130);
    expect(init.screen).not.toContain("--help");
    expect(existsSync(join(home.dir, "config", "hook-notify", "config.json"))).toBe(false);
  });

  it("init: clean questions, a wrong answer asked again, the config written", async () => {
    const home = tempHome();
    const run = await runOnPty(["init"], home.env, [
      { after: "Which sinks? (comma-separated) [desktop,sound]: ", send: "pager\r" },
      { after: "Which sinks? (comma-separated) [desktop,sound]: ", send: "ntfy\r" },
      { after: "[NTFY_URL]: ", send: "\r" },
    ]);
    expect(run.code).toBe(0);
    expect(run.screen).not.toMatch(INERT_CURSOR);
    expect(run.screen).toContain('"pager" is not valid here.');
    expect(run.screen).toContain(`${ESC}[0JWhich sinks?`);
    const config = readFileSync(join(home.dir, "config", "hook-notify", "config.json"), "utf8");
    expect(config).toContain("${NTFY_URL}");
  });
});
