// Crush's payloads (written from its source: test/fixtures/payloads/crush-documented) through the
// built binary as the entries install writes run them: exit 0, nothing on stdout (Crush parses
// it as a decision envelope), the notification delivered to a local webhook server.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { runBin, tempHome } from "../helpers/run-bin.js";
import { workerDone } from "../helpers/wait-until.js";

interface Sent {
  data: { event: string; client: string; level: string; failure: boolean; lastMessage?: string };
}

const DIR = join(import.meta.dirname, "..", "fixtures", "payloads", "crush-documented");

describe("Crush through the built binary", () => {
  it.each([
    ["PermissionRequest", "Notification", "attention", false],
    ["TurnEnd", "Stop", "done", false],
    ["StopFailure", "StopFailure", "failure", true],
    ["SessionEnd", "SessionEnd", "done", false],
  ] as const)(
    "%s → %s %s: exit 0, empty stdout, delivered",
    async (name, event, level, failure) => {
      const server = await startHttpServer([{ status: 200 }]);
      const home = tempHome();
      home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/agent` } } });
      // The variables Crush sets for its lifecycle hooks (internal/hooks/input.go).
      const env = {
        ...home.env,
        CRUSH: "1",
        AGENT: "crush",
        AI_AGENT: "crush",
        CRUSH_EVENT: name,
        CRUSH_SESSION_ID: "313909e",
        CRUSH_CWD: "/home/user/project",
        CRUSH_PROJECT_DIR: "/home/user/project",
      };
      const input = readFileSync(join(DIR, `${name}.json`), "utf8");
      const result = await runBin(["--client", "crush", "--timeout", "10"], { input, env });
      expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
      await server.waitForRequests(1, 15_000);
      await workerDone(home);
      const sent = JSON.parse(server.requests[0]!.body) as Sent;
      expect(sent.data).toMatchObject({ event, client: "crush", level, failure });
      if (name === "TurnEnd") expect(sent.data.lastMessage).toBe("Done: the tests pass.");
    },
  );

  it("without --client, the payload alone names Crush", async () => {
    const server = await startHttpServer([{ status: 200 }]);
    const home = tempHome();
    home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/agent` } } });
    const input = readFileSync(join(DIR, "TurnEnd.json"), "utf8");
    const result = await runBin(["--timeout", "10"], { input, env: home.env });
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    await server.waitForRequests(1, 15_000);
    await workerDone(home);
    expect((JSON.parse(server.requests[0]!.body) as Sent).data).toMatchObject({
      event: "Stop",
      client: "crush",
    });
  });
});
