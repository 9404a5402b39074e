// Qoder CLI's payloads (written from its bundle: test/fixtures/payloads/qoder-documented) through
// the built binary as the entries install writes run them: exit 0, nothing on stdout (Qoder reads
// Claude Code's hook output), the notification delivered to a local webhook server.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { runBin, tempHome } from "../helpers/run-bin.js";
import { workerDone } from "../helpers/wait-until.js";

interface Sent {
  data: { event: string; client: string; level: string; lastMessage?: string };
}

const DIR = join(import.meta.dirname, "..", "fixtures", "payloads", "qoder-documented");

describe("Qoder CLI through the built binary", () => {
  it.each([
    ["Notification-permission_prompt", "Notification", "attention"],
    ["Stop", "Stop", "done"],
    ["StopFailure-rate_limit", "StopFailure", "limit"],
    ["SessionEnd", "SessionEnd", "done"],
  ] as const)("%s → %s %s: exit 0, empty stdout, delivered", async (name, event, level) => {
    const server = await startHttpServer([{ status: 200 }]);
    const home = tempHome();
    home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/agent` } } });
    // The variables Qoder sets for its hooks: its project folder, under its name and Claude's.
    const env = {
      ...home.env,
      QODER_PROJECT_DIR: "/home/dev/shop-api",
      CLAUDE_PROJECT_DIR: "/home/dev/shop-api",
    };
    const input = readFileSync(join(DIR, `${name}.json`), "utf8");
    const result = await runBin(["--client", "qoder", "--timeout", "10"], { input, env });
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    await server.waitForRequests(1, 15_000);
    await workerDone(home);
    const sent = JSON.parse(server.requests[0]!.body) as Sent;
    expect(sent.data).toMatchObject({ event, client: "qoder", level });
    if (name === "Stop") expect(sent.data.lastMessage).toBe("Done: the tests pass.");
  });

  it("without --client, its transcript folder and variables name Qoder CLI", async () => {
    const server = await startHttpServer([{ status: 200 }]);
    const home = tempHome();
    home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/agent` } } });
    const env = { ...home.env, QODER_PROJECT_DIR: "/p", CLAUDE_PROJECT_DIR: "/p" };
    const input = readFileSync(join(DIR, "Stop.json"), "utf8");
    const result = await runBin(["--timeout", "10"], { input, env });
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    await server.waitForRequests(1, 15_000);
    await workerDone(home);
    expect((JSON.parse(server.requests[0]!.body) as Sent).data).toMatchObject({
      event: "Stop",
      client: "qoder",
    });
  });
});
