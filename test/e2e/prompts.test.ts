import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasScript, runOnPty } from "../helpers/pty.js";
import { tempHome } from "../helpers/run-bin.js";
import { startHttpServer } from "../helpers/http-server.js";
import { SINK_CHOICES } from "../../src/init/starter-config.js";

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

  it("init: sinks picked in a multi-select, a variable's name asked, then a test sent on yes", async () => {
    const server = await startHttpServer();
    const home = tempHome({ NTFY_URL: `${server.url}/agent-topic` });
    const down = "\u001b[B";
    // desktop and sound start checked: uncheck both, then down to ntfy and check it.
    const toNtfy = down.repeat(SINK_CHOICES.indexOf("ntfy") - 1);
    const run = await runOnPty(["init"], home.env, [
      { after: "Which sinks?", send: ` ${down} \r` }, // none left: asked again
      { after: "At least one choice must be selected", send: `${toNtfy} \r` },
      { after: "Environment variable holding", send: "\r" },
      { after: "Send a test notification now?", send: "y\r" },
    ]);
    expect(run.screen).not.toMatch(INERT_CURSOR);
    const config = readFileSync(join(home.dir, "config", "hook-notify", "config.json"), "utf8");
    expect(JSON.parse(config)).toEqual({
      $schema: "./config.schema.json",
      sinks: { ntfy: { type: "chat", service: "ntfy", url: "${NTFY_URL}" } },
    });
    expect(run.screen).toContain("1 of 1 sinks delivered the test notification.");
    expect(server.requests).toHaveLength(1);
    expect(run.code).toBe(0);
  });
});
