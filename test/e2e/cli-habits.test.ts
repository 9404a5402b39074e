import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { hasScript, runOnPty } from "../helpers/pty.js";
import { fixture, runBin, tempHome } from "../helpers/run-bin.js";

const ESC = "\u001b";

describe("the command line people expect", () => {
  it("global options before the command run that command, not the hook (stdin never closes)", async () => {
    const home = tempHome();
    const run = await runBin(["--config", "/nowhere/config.json", "doctor"], {
      env: home.env,
      neverClose: true,
      killAfterMs: 15_000,
    });
    expect(run.signal).toBeNull();
    expect(run.stdout).toContain("config: /nowhere/config.json: not found");
    const short = await runBin(["-c", "/nowhere/config.json", "doctor"], {
      env: home.env,
      neverClose: true,
      killAfterMs: 15_000,
    });
    expect(short.stdout).toContain("config: /nowhere/config.json: not found");
    expect(home.logLines()).toEqual([]);
  });

  it("a mistyped hook flag is refused before stdin is read: exit 1, the likely flag, nothing sent", async () => {
    const home = tempHome({ HOOK_NOTIFY_WORKER_IDLE_SECONDS: "30" });
    const server = await startHttpServer();
    home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/hook` } } });
    const typo = () =>
      runBin(["--client", "claude-code", "--dry-rn"], {
        env: home.env,
        input: fixture("claude-code/Stop.json"),
      });
    const cold = await typo(); // no worker: the full path refuses it
    expect(cold).toMatchObject({ code: 1, stdout: "" });
    expect(cold.stderr).toContain("hook-notify: unknown option --dry-rn. Did you mean --dry-run?");
    // A live worker offers the fast path: a typo still goes nowhere near it.
    const real = await runBin(["--client", "claude-code"], {
      env: home.env,
      input: fixture("claude-code/Stop.json"),
    });
    expect(real).toMatchObject({ code: 0, stdout: "" });
    await server.waitForRequests(1);
    const warm = await typo();
    expect(warm).toMatchObject({ code: 1, stdout: "" });
    expect(warm.stderr).toContain("Did you mean --dry-run?");
    const flush = await runBin(["flush"], { env: home.env });
    expect(flush.stdout).toMatch(/Outbox: (nothing is waiting|0 delivered, 0 failed)/);
    expect(server.requests).toHaveLength(1);
    expect(home.logLines().filter((line) => "event" in line)).toHaveLength(1);
  });

  it("--version, -V, --help never read stdin; --versoin and --hlep get the likely flag, exit 1", async () => {
    const home = tempHome();
    const open = (args: string[]) =>
      runBin(args, { env: home.env, neverClose: true, killAfterMs: 15_000 });
    for (const flag of ["--version", "-V", "-v"]) {
      expect(await open([flag])).toMatchObject({ code: 0, signal: null, stdout: "0.1.0\n" });
    }
    expect((await open(["--help"])).stdout).toContain("Usage: hook-notify <command>");
    for (const [typo, meant] of [
      ["--versoin", "--version"],
      ["--hlep", "--help"],
    ]) {
      const run = await open([typo ?? ""]);
      expect(run).toMatchObject({ code: 1, signal: null, stdout: "" });
      expect(run.stderr).toContain(`unknown option ${typo ?? ""}. Did you mean ${meant ?? ""}?`);
    }
    expect(home.logLines()).toEqual([]);
  });

  it("install and uninstall without a terminal refuse to write without --yes (exit 2, usage); --dry-run still shows", async () => {
    const home = tempHome();
    const hooks = join(home.dir, ".factory", "hooks.json");
    mkdirSync(dirname(hooks), { recursive: true });
    const droid = ["--client", "droid"];
    const install = await runBin(["install", ...droid], { env: home.env });
    expect(install).toMatchObject({ code: 2, stdout: "" });
    expect(install.stderr).toContain("--yes required when not running interactively");
    expect(existsSync(hooks)).toBe(false);
    const preview = await runBin(["install", ...droid, "--dry-run"], { env: home.env });
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain("hooks.json");
    expect((await runBin(["install", ...droid, "--yes"], { env: home.env })).code).toBe(0);
    const installed = readFileSync(hooks, "utf8");
    const uninstall = await runBin(["uninstall", ...droid], { env: home.env });
    expect(uninstall).toMatchObject({ code: 2, stdout: "" });
    expect(uninstall.stderr).toContain("hook-notify uninstall --dry-run");
    expect(readFileSync(hooks, "utf8")).toBe(installed);
  });

  it("log --tail takes a whole number of runs: abc, -3 and 2.5 are usage errors (exit 2)", async () => {
    const home = tempHome();
    for (const tail of ["abc", "-3", "2.5"]) {
      const run = await runBin(["log", "-n", tail], { env: home.env });
      expect(run).toMatchObject({ code: 2, stdout: "" });
      expect(run.stderr).toContain("--tail: give a whole number of runs, 0 or more");
    }
    expect((await runBin(["log", "-n", "0"], { env: home.env })).code).toBe(0);
  });

  it.runIf(hasScript)(
    "bare hook-notify on a terminal shows the three first steps, reads nothing",
    async () => {
      const home = tempHome();
      const run = await runOnPty([], home.env);
      expect(run.code).toBe(1);
      for (const step of ["hook-notify install", "hook-notify test", "hook-notify doctor"])
        expect(run.screen).toContain(step);
      expect(home.logLines()).toEqual([]);
    },
  );

  // Exit 1, not 2 (usage): an unknown command word may be a hand-written hook line.
  it("a mistyped command gets the likely one, exit 1 (never 2), nothing on stdout", async () => {
    const home = tempHome();
    const run = await runBin(["instal"], { env: home.env });
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toBe(
      'hook-notify: "instal" is not a command. Did you mean "hook-notify install"? Run hook-notify --help for the list.\n',
    );
    const none = await runBin(["frobnicate"], { env: home.env });
    expect(none.code).toBe(1);
    expect(none.stderr).not.toContain("Did you mean");
    expect(home.logLines()).toEqual([]);
  });

  it("a usage mistake exits 2 on a named command, never where a client may be waiting", async () => {
    const home = tempHome();
    const named = await runBin(["doctor", "--bogus"], { env: home.env });
    expect(named).toMatchObject({ code: 2, stdout: "" });
    expect(named.stderr).toBe(
      'hook-notify doctor: unknown option --bogus. See "hook-notify doctor --help".\n',
    );
    const input = fixture("claude-code/Stop.json");
    // The hook (also through `run`), a permission hook and a command word no one registered.
    for (const args of [
      ["--evnt", "Stop"],
      ["run", "--bogus"],
      ["--config", "x.json", "notfy"],
    ])
      expect(await runBin(args, { env: home.env, input })).toMatchObject({ code: 1, stdout: "" });
    const approve = await runBin(["approve", "--bogus", "--timout", "5"], { env: home.env, input });
    expect(approve).toMatchObject({ code: 0, stdout: "" });
    expect((await runBin(["notfy"], { env: home.env, input })).code).toBe(1);
  });

  it("help <command> is <command> --help, also after --no-color", async () => {
    const home = tempHome();
    const viaHelp = await runBin(["help", "install"], { env: home.env });
    const viaFlag = await runBin(["install", "--help"], { env: home.env });
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    expect(viaHelp.stdout).toContain("--events");
    const log = await runBin(["--no-color", "help", "log"], { env: home.env });
    expect(log.stdout).toMatch(/^hook-notify log\n/);
  });

  it("install --help names every event it adds; uninstall --help shows only its own options", async () => {
    const home = tempHome();
    const install = (await runBin(["install", "--help"], { env: home.env })).stdout;
    expect(install).toContain("StopFailure");
    expect(install).toContain("UserPromptSubmit");
    expect(install).toContain("--timeout");
    const uninstall = (await runBin(["uninstall", "--help"], { env: home.env })).stdout;
    expect(uninstall).not.toContain("--timeout");
    expect(uninstall).not.toContain("Events to install");
    expect(uninstall).toContain("Events to take out");
  });

  it("--color and FORCE_COLOR colour piped output; --no-color and FORCE_COLOR=0 never colour", async () => {
    const home = tempHome();
    const piped = (args: string[], env: Record<string, string> = {}) =>
      runBin(["doctor", ...args], { env: { ...home.env, ...env } }).then((r) => r.stdout);
    expect(await piped([])).not.toContain(ESC);
    expect(await piped(["--color"])).toContain(ESC);
    expect(await piped([], { FORCE_COLOR: "1" })).toContain(ESC);
    expect(await piped([], { FORCE_COLOR: "1", NO_COLOR: "1" })).toContain(ESC);
    expect(await piped(["--no-color"], { FORCE_COLOR: "1" })).not.toContain(ESC);
  });

  it.runIf(hasScript)("--no-color and FORCE_COLOR=0 on a terminal: no colour", async () => {
    const home = tempHome();
    expect((await runOnPty(["doctor"], home.env)).screen).toContain(ESC);
    expect((await runOnPty(["--no-color", "doctor"], home.env)).screen).not.toContain(`${ESC}[3`);
    const zero = await runOnPty(["doctor"], { ...home.env, FORCE_COLOR: "0" });
    expect(zero.screen).not.toContain(`${ESC}[3`);
  });

  it("flush with nothing waiting does not say a worker is delivering", async () => {
    const home = tempHome({ HOOK_NOTIFY_WORKER_IDLE_SECONDS: "30" });
    const server = await startHttpServer();
    home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/hook` } } });
    const hook = await runBin(["--client", "claude-code"], {
      env: home.env,
      input: fixture("claude-code/Stop.json"),
    });
    expect(hook).toMatchObject({ code: 0, stdout: "" });
    await server.waitForRequests(1);
    const flush = await runBin(["flush"], { env: home.env });
    expect(flush.code).toBe(0);
    expect(flush.stdout).not.toContain("is delivering");
    expect(flush.stdout).toMatch(/Outbox: (nothing is waiting|0 delivered, 0 failed)/);
  });

  it("test on a hung server: a sending… line after a second on a terminal (none on a pipe), and no promise of a retry it never makes", async () => {
    const home = tempHome();
    const server = await startHttpServer([{ hang: true }]);
    const gone = await startHttpServer();
    await gone.close(); // connection refused
    home.writeConfig({
      sinks: {
        hook: { type: "webhook", url: `${server.url}/hook`, timeoutSeconds: 2 },
        gone: { type: "webhook", url: `${gone.url}/hook` },
      },
    });
    const run = await runBin(["test"], { env: home.env });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain("sending…");
    expect(run.stdout).toContain("would be retried (test sends once)");
    expect(run.stdout).not.toMatch(/[Ii]t will be retried/);
    if (hasScript) {
      const onTerminal = await runOnPty(["test", "--sink", "hook"], home.env);
      expect(onTerminal.screen).toContain("hook-notify: sending… (waiting for the sinks to answer");
    }
  });

  it("test runs are logged (marked test), so log and log --failed show them", async () => {
    const home = tempHome();
    const server = await startHttpServer([{ status: 500, body: "down" }]);
    home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/hook` } } });
    expect((await runBin(["test"], { env: home.env })).code).toBe(1);
    expect(home.logLines()).toEqual([
      expect.objectContaining({
        via: "test",
        event: "Stop",
        outcomes: [expect.objectContaining({ sink: "hook", ok: false })],
      }),
    ]);
    const failed = await runBin(["log", "--failed"], { env: home.env });
    expect(failed.stdout).toMatch(/\btest\s+Stop\b.*hook SINK_HTTP_STATUS/);
  });

  it("an unset ${VAR} tells one story: test, doctor, the hook's log line and log --failed", async () => {
    const home = tempHome({ SLACK_WEBHOOK_URL: undefined });
    home.writeConfig({
      sinks: { slack: { type: "chat", service: "slack", url: "${SLACK_WEBHOOK_URL}" } },
    });
    const notSet = "sinks.slack.url: environment variable SLACK_WEBHOOK_URL is not set";
    const test = await runBin(["test", "--sink", "slack"], { env: home.env });
    expect(test.code).toBe(1);
    expect(test.stderr.split(notSet)).toHaveLength(2); // said once, with its fix
    expect(test.stdout).toMatch(
      /^slack +skipped: left out while \$\{SLACK_WEBHOOK_URL\} is not set/m,
    );
    expect(test.stderr).not.toContain("Invalid URL");
    expect(test.stderr).not.toContain("no sink named");
    const doctor = await runBin(["doctor"], { env: home.env });
    expect(doctor.stdout).not.toMatch(/^ok config/m);
    expect(doctor.stdout.match(/^failed config/gm)).toHaveLength(1);
    expect(doctor.stdout).toContain("fix: Export SLACK_WEBHOOK_URL where the agent runs");
    const hook = await runBin(["--client", "claude-code"], {
      env: home.env,
      input: fixture("claude-code/Stop.json"),
    });
    expect(hook).toMatchObject({ code: 0, stdout: "" });
    const failed = await runBin(["log", "--failed"], { env: home.env });
    expect(failed.stdout).toContain(`left out: ${notSet}`);
  });

  it("help init lists every sink --sinks accepts (from the registry)", async () => {
    const home = tempHome();
    const help = (await runBin(["help", "init"], { env: home.env })).stdout.replace(/\s+/g, " ");
    for (const sink of ["terminal", "telegram", "pushover", "gotify", "matrix", "webhook"])
      expect(help).toContain(sink);
  });

  it("init's next steps name all six clients", async () => {
    const home = tempHome();
    const init = await runBin(["init", "--sinks", "desktop"], { env: home.env });
    expect(init.code).toBe(0);
    for (const client of ["Claude Code", "Droid", "Codex", "Gemini CLI", "Copilot CLI", "OpenCode"])
      expect(init.stdout).toContain(client);
  });
});
