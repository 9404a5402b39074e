import { describe, expect, it } from "vitest";
import { fixture, runBin } from "../helpers/run-bin.js";
import { webhookHome, workerDone } from "../helpers/wait-until.js";

interface Sent {
  data: { event: string; client: string; level: string; failure: boolean; title: string };
}

// What the hook entries install writes run, fed the payloads captured from the real clients.
const CASES = [
  ["codex/PermissionRequest.json", "codex", "Notification", "attention"],
  ["codex/Stop.json", "codex", "Stop", "done"],
  ["codex/SessionEnd.json", "codex", "SessionEnd", "done"],
  ["gemini/Notification.json", "gemini", "Notification", "attention"],
  ["gemini/AfterAgent.json", "gemini", "Stop", "done"],
  ["gemini/SessionEnd.json", "gemini", "SessionEnd", "done"],
  ["opencode/permission.asked.json", "opencode", "Notification", "attention"],
  ["opencode/session.idle.json", "opencode", "Stop", "done"],
] as const;

describe("Codex, Gemini CLI, Copilot CLI and OpenCode through the built binary", () => {
  it.each(CASES)(
    "%s → %s %s: exit 0, empty stdout, delivered",
    async (name, client, event, level) => {
      const { server, home } = await webhookHome();
      const args = ["--client", client, "--timeout", "10"];
      const result = await runBin(args, { input: fixture(name), env: home.env });
      expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
      await server.waitForRequests(1, 15_000);
      await workerDone(home);
      const sent = JSON.parse(server.requests[0]!.body) as Sent;
      expect(sent.data).toMatchObject({ event, client, level, failure: false });
    },
  );

  it.each([
    ["copilot/notification.json", "notification", "Notification", "attention", false],
    ["copilot/agentStop.json", "agentStop", "Stop", "done", false],
    ["copilot/sessionEnd-error.json", "sessionEnd", "SessionEnd", "failure", true],
  ] as const)("%s with --event %s → %s %s", async (name, named, event, level, failure) => {
    const { server, home } = await webhookHome();
    const args = ["--client", "copilot", "--event", named, "--timeout", "10"];
    const result = await runBin(args, { input: fixture(name), env: home.env });
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    await server.waitForRequests(1, 15_000);
    await workerDone(home);
    const sent = JSON.parse(server.requests[0]!.body) as Sent;
    expect(sent.data).toMatchObject({ event, client: "copilot", level, failure });
  });

  it("takes Codex's notify event from its last argument instead of stdin", async () => {
    const { server, home } = await webhookHome();
    const payload = fixture("codex/notify-agent-turn-complete.json");
    const result = await runBin(["--client", "codex", payload], { env: home.env });
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    await server.waitForRequests(1, 15_000);
    await workerDone(home);
    const sent = JSON.parse(server.requests[0]!.body) as Sent & {
      data: { lastMessage: string };
    };
    expect(sent.data).toMatchObject({
      event: "Stop",
      client: "codex",
      lastMessage: "All done: the mock model answered.",
    });
  });

  // A turn that ends on an API error (rate limit, overload, auth) sends StopFailure instead of
  // Stop: a sink with the default events must hear of it, not only at session end.
  it.each([
    ["claude-code/StopFailure.json", ["--client", "claude-code"], "claude-code"],
    ["copilot/errorOccurred.json", ["--client", "copilot", "--event", "errorOccurred"], "copilot"],
    ["opencode/session.error.json", ["--client", "opencode"], "opencode"],
  ] as const)(
    "%s → StopFailure, a failure, for a sink with the default events",
    async (name, args, client) => {
      const { server, home } = await webhookHome();
      const result = await runBin([...args, "--timeout", "10"], {
        input: fixture(name),
        env: home.env,
      });
      expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
      await server.waitForRequests(1, 15_000);
      await workerDone(home);
      const sent = JSON.parse(server.requests[0]!.body) as Sent;
      expect(sent.data).toMatchObject({
        event: "StopFailure",
        client,
        level: "failure",
        failure: true,
      });
    },
  );

  it("ignores the Codex TUI's task-title turn: logged, nothing sent", async () => {
    const { server, home } = await webhookHome();
    const payload = fixture("codex/notify-title-turn.json");
    const result = await runBin([payload], { env: home.env });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(home.logLines()[0]).toMatchObject({ ignored: "agent-turn-complete (title)" });
    expect(server.requests).toHaveLength(0);
  });
});
