import { parseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { RUN_FLAGS, hookArgs, toRunArgs } from "../../src/commands/run-flags.js";
import { runBin, tempHome } from "../helpers/run-bin.js";

describe("toRunArgs (both parsers' values → the run's arguments)", () => {
  it.each([
    [{ timeout: "10" }, { timeout: 10 }],
    [{ timeout: 7 }, { timeout: 7 }],
    [{ timeout: "soon" }, { timeout: undefined }],
    [{ timeout: "0" }, { timeout: undefined }],
    [{ client: "droid" }, { client: "droid" }],
    [{ client: "emacs" }, { client: undefined }],
    [{ event: "" }, { event: undefined }],
    [{ event: "agentStop" }, { event: "agentStop" }],
    [
      { "dry-run": true, wait: "yes" },
      { dryRun: true, wait: false },
    ],
  ])("%j → %j", (values, expected) => {
    expect(toRunArgs(values)).toMatchObject(expected);
  });
});

describe("one flag table", () => {
  it("run --help (yargs) describes every flag the hook path (parseArgs) reads", async () => {
    const result = await runBin(["run", "--help"], { env: tempHome().env });
    expect(result.code).toBe(0);
    const help = result.stdout.replace(/\s+/g, " ");
    for (const [name, flag] of Object.entries(RUN_FLAGS)) {
      expect(help).toContain(`--${name}`);
      expect(help).toContain(flag.describe.replace(/\s+/g, " "));
    }
  });

  it("the hook path takes a short flag from the table (-c)", async () => {
    const home = tempHome();
    const result = await runBin(["-c", "/nonexistent/config.json", "--dry-run"], {
      input: JSON.stringify({ hook_event_name: "Stop", session_id: "s", cwd: home.dir }),
      env: home.env,
    });
    expect(result.stderr).toContain("/nonexistent/config.json: not found");
  });
});

// hookArgs reads the flags by hand (node:util costs the hook ~4 M instructions to load); node's own
// parseArgs, in the non-strict mode the hook used before, is the reference it must agree with.
describe("hookArgs agrees with node's parseArgs (strict: false)", () => {
  const options = Object.fromEntries(
    Object.entries(RUN_FLAGS).map(([name, flag]) => [
      name,
      {
        type: flag.type === "boolean" ? ("boolean" as const) : ("string" as const),
        ...(flag.short === undefined ? {} : { short: flag.short }),
      },
    ]),
  );
  const reference = (argv: string[]) => {
    const { values, positionals } = parseArgs({
      args: argv.filter((a) => a !== "run"),
      options,
      strict: false,
      allowPositionals: true,
    });
    return toRunArgs(
      values,
      positionals.findLast((word) => word.trimStart().startsWith("{")),
    );
  };
  it.each([
    [[]],
    [["run"]],
    [["--client", "claude-code", "--timeout", "10"]],
    [["--client=droid", "--timeout=5", "--event", "agentStop"]],
    [["-c", "/tmp/x.json", "--dry-run"]],
    [["-c/tmp/y.json", "--wait"]],
    [["--config", "--dry-run"]],
    [["--timeout"]],
    [["--unknown", "value", "--client", "codex", '{"type":"agent-turn-complete"}']],
    [["--client", "codex", "--", "--config", '{"a":1}']],
    [["run", "--client", "gemini", "--timeout", "60", "--", '{"x":1}', '{"y":2}']],
    [["--dry-run=false", "--wait", "extra"]],
    [["-n", "--config=/c=d.json"]],
    [["--event", '{"not":"a flag"}']],
  ])("%j", (argv) => {
    expect(hookArgs(argv)).toEqual(reference(argv));
  });
});
