// Cursor's payloads (written from its code: test/fixtures/payloads/cursor-documented)
// through the built binary as the entries install writes run them: exit 0, nothing on stdout (on
// stop, a followup_message there would make the agent go on), delivered to a local webhook server.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBin } from "../helpers/run-bin.js";
import { webhookHome, workerDone } from "../helpers/wait-until.js";

interface Sent {
  data: { event: string; client: string; level: string; failure: boolean };
}

const DIR = join(import.meta.dirname, "..", "fixtures", "payloads", "cursor-documented");
// The variables Cursor sets for its hooks (buildHookEnvironment, in @cursor/sdk 1.0.32).
const CURSOR_ENV = {
  CURSOR_PROJECT_DIR: "/path/to/project",
  CURSOR_VERSION: "1.0.0",
  CLAUDE_PROJECT_DIR: "/path/to/project",
};

describe("Cursor through the built binary", () => {
  it.each([
    ["stop-completed", "Stop", "done", false],
    ["stop-error", "StopFailure", "failure", true],
    ["sessionEnd-completed", "SessionEnd", "done", false],
    ["sessionEnd-error", "SessionEnd", "failure", true],
  ] as const)(
    "%s → %s %s: exit 0, empty stdout, delivered",
    async (name, event, level, failure) => {
      const { server, home } = await webhookHome();
      const input = readFileSync(join(DIR, `${name}.json`), "utf8");
      const env = { ...home.env, ...CURSOR_ENV };
      const result = await runBin(["--client", "cursor", "--timeout", "10"], { input, env });
      expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
      await server.waitForRequests(1, 15_000);
      await workerDone(home);
      const sent = JSON.parse(server.requests[0]!.body) as Sent;
      expect(sent.data).toMatchObject({ event, client: "cursor", level, failure });
    },
  );

  it("an aborted stop (the person stopped it) is recorded as ignored: exit 0, empty stdout, nothing sent", async () => {
    const { server, home } = await webhookHome();
    const input = readFileSync(join(DIR, "stop-aborted.json"), "utf8");
    const env = { ...home.env, ...CURSOR_ENV };
    const result = await runBin(["--client", "cursor", "--timeout", "10"], { input, env });
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(home.logLines()[0]).toMatchObject({ ignored: "stop (aborted)" });
    expect(server.requests).toHaveLength(0);
  });

  it("without --client, the payload names Cursor (not Auggie, not Claude Code)", async () => {
    const { server, home } = await webhookHome();
    const input = readFileSync(join(DIR, "stop-completed.json"), "utf8");
    const env = { ...home.env, ...CURSOR_ENV };
    const result = await runBin(["--timeout", "10"], { input, env });
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    await server.waitForRequests(1, 15_000);
    await workerDone(home);
    expect((JSON.parse(server.requests[0]!.body) as Sent).data).toMatchObject({
      event: "Stop",
      client: "cursor",
    });
  });
});
