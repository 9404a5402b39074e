// --json on install, uninstall and flush: stdout is exactly one JSON object of the documented
// shape (docs/cli.md), also when the command refuses; the human text stays off stdout.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { fixture, runBin, tempHome } from "../helpers/run-bin.js";

function onlyJson(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? "") as Record<string, unknown>;
}

describe("--json", () => {
  it("install and uninstall: refused without --yes, then the files and what changed", async () => {
    const home = tempHome();
    mkdirSync(join(home.dir, ".factory"));
    const hooks = join(home.dir, ".factory", "hooks.json");
    const droid = ["--client", "droid", "--json"];
    const refused = await runBin(["install", ...droid], { env: home.env });
    expect(refused.code).toBe(2);
    expect(onlyJson(refused.stdout)).toMatchObject({
      action: "install",
      ok: false,
      written: false,
      error: { code: "USAGE", message: expect.stringContaining("--yes required") as string },
    });
    expect(existsSync(hooks)).toBe(false);
    const installed = await runBin(["install", ...droid, "--yes"], { env: home.env });
    expect(installed.code).toBe(0);
    const json = onlyJson(installed.stdout);
    expect(json).toMatchObject({ action: "install", ok: true, written: true, dryRun: false });
    expect(json["files"]).toContainEqual({
      client: "droid",
      file: "~/.factory/hooks.json",
      changed: true,
      summary: expect.arrayContaining(["Stop: added"]) as string[],
    });
    expect(existsSync(hooks)).toBe(true);
    const again = onlyJson(
      (await runBin(["install", ...droid, "--yes"], { env: home.env })).stdout,
    );
    expect(again).toMatchObject({ ok: true, written: false });
    const removed = await runBin(["uninstall", ...droid, "--yes"], { env: home.env });
    expect(onlyJson(removed.stdout)).toMatchObject({
      action: "uninstall",
      ok: true,
      written: true,
    });
    expect(existsSync(hooks)).toBe(false);
  });

  it("flush: what was delivered and what was not, one object", async () => {
    const home = tempHome();
    const idle = await runBin(["flush", "--json"], { env: home.env });
    expect(onlyJson(idle.stdout)).toEqual({
      ok: true,
      delivered: 0,
      failed: 0,
      pending: 0,
      results: [],
      quarantined: 0,
    });
    const server = await startHttpServer([{ status: 500 }, { status: 500 }, { status: 500 }]);
    home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/hook` } } });
    const hook = await runBin(["--client", "claude-code"], {
      env: home.env,
      input: fixture("claude-code/Stop.json"),
    });
    expect(hook).toMatchObject({ code: 0, stdout: "" });
    await server.waitForRequests(1);
    const flush = await runBin(["flush", "--json"], { env: home.env });
    // The worker's first try got a 500 and scheduled a retry; flush tries again now: 500 again.
    expect(flush.code).toBe(1);
    expect(onlyJson(flush.stdout)).toMatchObject({
      ok: false,
      delivered: 0,
      failed: 0,
      pending: 1,
      results: [
        {
          sink: "hook",
          id: expect.any(String) as string,
          outcome: "retry",
          message: expect.stringContaining("500") as string,
        },
      ],
    });
  });
});
