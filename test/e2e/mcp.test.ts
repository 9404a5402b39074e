// `hook-notify mcp` as a client runs it: the BUILT binary spawned over stdio, spoken to with the
// official MCP SDK's client. A notify call is an AgentNotify event that goes the hook's way (the
// worker, the routing, the log) to a real local webhook server.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { BIN, handedOverRun, tempHome, type TempHome } from "../helpers/run-bin.js";
import { waitUntil, workerDone } from "../helpers/wait-until.js";

interface Sent {
  type: string;
  data: {
    event: string;
    level: string;
    failure: boolean;
    title: string;
    body: string;
    client?: string;
    session?: { id?: string };
  };
}

async function connect(home: TempHome, env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp"],
    env: { ...(home.env as Record<string, string>), ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "e2e-agent", version: "1.2.3" });
  await client.connect(transport);
  onTestFinished(() => client.close());
  return client;
}

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const content = result.content as { type: string; text: string }[];
  return content.map((c) => c.text).join("\n");
}

describe("hook-notify mcp", () => {
  it("answers initialize and lists notify, whose description says when to use it", async () => {
    const home = tempHome();
    const client = await connect(home);
    expect(client.getServerVersion()?.name).toBe("hook-notify");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["notify"]);
    const notify = tools[0]!;
    expect(notify.description).toMatch(/sparingly/);
    expect(notify.inputSchema.required).toEqual(["title", "message", "level"]);
  });

  it("a notify call reaches a webhook sink and the log, as the hook's events do", async () => {
    const server = await startHttpServer([{ status: 200 }]);
    const home = tempHome();
    home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/agent` } } });
    const client = await connect(home, {
      CLAUDECODE: "1",
      CLAUDE_CODE_SESSION_ID: "5e55-10n",
    });
    const result = await client.callTool({
      name: "notify",
      arguments: {
        // An escape sequence and a bidi override from the model: made inert before any sink.
        title: "Migration needs a decision\u001b[31m \u202e",
        message: "Drop the old table?\nIt holds 3 rows.",
        level: "needs-you",
      },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/hook-notify/);
    await server.waitForRequests(1, 15_000);
    await handedOverRun(home.env);
    await workerDone(home);
    const sent = JSON.parse(server.requests[0]!.body) as Sent;
    expect(sent.data).toMatchObject({
      event: "AgentNotify",
      level: "attention",
      failure: false,
      client: "claude-code",
      session: { id: "5e55-10n" },
    });
    expect(sent.data.title).toMatch(/Migration needs a decision/);
    for (const character of ["\u001b", "\u202e"]) expect(sent.data.title).not.toContain(character);
    expect(sent.data.body).toMatch(/Drop the old table\?/);
    await waitUntil(() => home.logLines().some((line) => line.event === "AgentNotify"));
    const line = home.logLines().find((l) => l.event === "AgentNotify")!;
    expect(line).toMatchObject({ client: "claude-code", session: "5e55-10n" });
    expect(line.outcomes).toEqual([expect.objectContaining({ sink: "hook", ok: true })]);
  });

  it("sinks names the channel: only that sink gets it; an unknown name is an error for the model", async () => {
    const server = await startHttpServer([{ status: 200 }, { status: 200 }]);
    const home = tempHome();
    home.writeConfig({
      sinks: {
        phone: { type: "webhook", url: `${server.url}/phone` },
        team: { type: "webhook", url: `${server.url}/team` },
      },
    });
    const client = await connect(home);
    const wrong = await client.callTool({
      name: "notify",
      arguments: { title: "Deploy", message: "green", level: "info", sinks: ["pager"] },
    });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/no sink named pager; the configured sinks are phone, team/);
    const result = await client.callTool({
      name: "notify",
      arguments: {
        title: "Deploy is green",
        message: "v2.4 is live.",
        level: "info",
        sinks: ["phone"],
      },
    });
    expect(result.isError).toBeFalsy();
    await server.waitForRequests(1, 15_000);
    await handedOverRun(home.env);
    await workerDone(home);
    expect(server.requests.map((r) => r.url)).toEqual(["/phone"]);
    const sent = JSON.parse(server.requests[0]!.body) as Sent;
    expect(sent.data).toMatchObject({ event: "AgentNotify", level: "info" });
    const line = home.logLines().find((l) => l.event === "AgentNotify")!;
    expect(line.skipped).toEqual([
      expect.objectContaining({ sink: "team", reason: "not among the sinks the agent named" }),
    ]);
  });

  it("a call with a missing level is refused with what to fix", async () => {
    const home = tempHome();
    const client = await connect(home);
    const result = await client.callTool({
      name: "notify",
      arguments: { title: "x", message: "y" },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/expected one of "info"\|"needs-you"\|"failure" at level/);
  });
});
