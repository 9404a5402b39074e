// What Claude Code 2.1.332 sends that 2.1.197 did not, through the built binary with a webhook sink
// on the default events: a PermissionDenied (auto mode blocked an action) is notified with what was
// denied, and a Stop while a background subagent runs says nothing until the Stop that ends it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { fixture, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";

interface Sent {
  data: { event: string; level: string; failure: boolean; title: string; body: string };
}

// The outbox worker the hook started may still be tidying up: let it finish.
async function workerDone(home: TempHome): Promise<void> {
  const lock = join(home.dir, "state", "hook-notify", "outbox", "worker.lock");
  for (let i = 0; i < 300 && existsSync(lock); i++) await new Promise((r) => setTimeout(r, 100));
}

async function setup() {
  const server = await startHttpServer([{ status: 200 }]);
  const home = tempHome();
  home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/agent` } } });
  return { server, home };
}

async function hook(home: TempHome, name: string): Promise<void> {
  const args = ["--client", "claude-code", "--timeout", "10"];
  const result = await runBin(args, { input: fixture(name), env: home.env });
  expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
}

describe("Claude Code 2.1.332's new events through the built binary", () => {
  it("PermissionDenied: the agent was blocked, and the notification says what and why", async () => {
    const { server, home } = await setup();
    await hook(home, "claude-code/PermissionDenied.json");
    await server.waitForRequests(1, 15_000);
    await workerDone(home);
    const sent = (JSON.parse(server.requests[0]!.body) as Sent).data;
    expect(sent).toMatchObject({
      event: "PermissionDenied",
      level: "attention",
      failure: false,
      title: "shop-api · Claude was blocked: Bash denied",
    });
    expect(sent.body).toContain("Bash: git push --force origin main");
    expect(sent.body).toContain("Auto mode could not evaluate this action");
  });

  it("a Stop with a background subagent running is held; the Stop that ends it says done", async () => {
    const { server, home } = await setup();
    await hook(home, "claude-code/Stop-background_tasks.json");
    await hook(home, "claude-code/Stop-background_done.json");
    await server.waitForRequests(1, 15_000);
    await workerDone(home);
    // Both hook runs are delivered or held by now (the worker is gone): one notification only.
    expect(server.requests).toHaveLength(1);
    expect((JSON.parse(server.requests[0]!.body) as Sent).data.event).toBe("Stop");
    const skipped = home.logLines().flatMap((line) => (line.skipped ?? []) as { rule: string }[]);
    expect(skipped.map((skip) => skip.rule)).toEqual(["background"]);
  });
});
