// What Claude Code 2.1.332 sends that 2.1.197 did not, through the built binary with a webhook sink
// on the default events: a PermissionDenied (auto mode blocked an action) is notified with what was
// denied, and a Stop while a background subagent runs says nothing until the Stop that ends it.
import { describe, expect, it } from "vitest";
import { fixture, runBin, type TempHome } from "../helpers/run-bin.js";
import { webhookHome, workerDone } from "../helpers/wait-until.js";

interface Sent {
  data: { event: string; level: string; failure: boolean; title: string; body: string };
}

async function hook(home: TempHome, name: string): Promise<void> {
  const args = ["--client", "claude-code", "--timeout", "10"];
  const result = await runBin(args, { input: fixture(name), env: home.env });
  expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
}

describe("Claude Code 2.1.332's new events through the built binary", () => {
  it("PermissionDenied: the agent was blocked, and the notification says what and why", async () => {
    const { server, home } = await webhookHome();
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
    const { server, home } = await webhookHome();
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
