import { describe, expect, it } from "vitest";
import { RUN_FLAGS, toRunArgs } from "../../src/commands/run-flags.js";
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
