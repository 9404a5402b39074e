import { textInput } from "../../../src/input-source.js";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { Deps } from "../../../src/deps.js";
import { HookNotifyError } from "../../../src/errors.js";
import { chat } from "../../../src/sinks/chat/index.js";
import type { ChatOptions } from "../../../src/sinks/chat/index.js";
import type { SendContext } from "../../../src/sinks/sink.js";
import { startHttpServer, type Reply } from "../../helpers/http-server.js";
import { failure, stop } from "./notifications.js";

// The webhook services (Telegram, Pushover and Gotify have test files of their own).
const CHAT_SERVICES = ["slack", "discord", "teams", "googlechat", "mattermost", "ntfy"] as const;
type ChatService = (typeof CHAT_SERVICES)[number];

// No proxy variables: requests go straight to the local server.
function makeContext(): SendContext {
  const deps: Deps = {
    stdin: textInput(""),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    env: {},
    platform: process.platform,
    cwd: process.cwd(),
    homedir: "/nonexistent",
    now: Date.now,
  };
  return { signal: AbortSignal.timeout(5000), deps, sinkName: "team-chat", wait: true };
}

// Each service's webhook path on the local server, and what that service answers on success.
const CASES: Record<ChatService, { path: string; reply: Reply; expectedPath: string }> = {
  slack: {
    path: "/services/T0/B0/secret",
    reply: { status: 200, body: "ok" },
    expectedPath: "/services/T0/B0/secret",
  },
  discord: {
    path: "/api/webhooks/1/tok",
    reply: { status: 200, body: '{"id":"1"}', headers: { "content-type": "application/json" } },
    expectedPath: "/api/webhooks/1/tok?wait=true",
  },
  teams: {
    path: "/workflows/x/invoke?sig=s",
    reply: { status: 202 },
    expectedPath: "/workflows/x/invoke?sig=s",
  },
  googlechat: {
    path: "/v1/spaces/A/messages?key=k&token=t",
    reply: { status: 200, body: '{"name":"spaces/A/messages/1"}' },
    expectedPath: "/v1/spaces/A/messages?key=k&token=t",
  },
  mattermost: {
    path: "/hooks/abc",
    reply: { status: 200, body: "ok" },
    expectedPath: "/hooks/abc",
  },
  ntfy: { path: "/mytopic", reply: { status: 200, body: '{"id":"x"}' }, expectedPath: "/" },
};

async function sendTo(service: ChatService, replies: Reply[], extra: { token?: string } = {}) {
  const server = await startHttpServer(replies);
  const url = `${server.url}${CASES[service].path}`;
  const options = { service, url, ...extra } as ChatOptions;
  const outcome = await chat.send(failure, options, makeContext()).then(
    () => undefined,
    (error: unknown) => error,
  );
  return { server, outcome, options };
}

describe("chat.send against a local server", () => {
  it.each(CHAT_SERVICES)("%s: posts the rendered JSON to the right path", async (service) => {
    const { server, outcome, options } = await sendTo(service, [CASES[service].reply]);
    expect(outcome).toBeUndefined();
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.url).toBe(CASES[service].expectedPath);
    expect(request.headers["content-type"]).toMatch(/^application\/json/);
    const rendered = chat.render(failure, options, makeContext().deps) as { body: unknown };
    const sent: unknown = JSON.parse(request.body);
    if (service === "ntfy")
      expect(sent).toEqual({ ...(rendered.body as object), topic: "mytopic" });
    else expect(sent).toEqual(rendered.body);
  });

  it("ntfy: sends the token as a Bearer header", async () => {
    const { server, outcome } = await sendTo("ntfy", [CASES.ntfy.reply], { token: "tk_abc123" });
    expect(outcome).toBeUndefined();
    expect(server.requests[0]!.headers.authorization).toBe("Bearer tk_abc123");
  });

  it("discord: 404 means the webhook is gone for good", async () => {
    const { outcome } = await sendTo("discord", [
      { status: 404, body: '{"message": "Unknown Webhook", "code": 10015}' },
    ]);
    expect(outcome).toBeInstanceOf(HookNotifyError);
    expect(outcome).toMatchObject({
      code: "SINK_HTTP_STATUS",
      retryable: false,
      sink: "team-chat",
    });
    expect((outcome as Error).message).not.toContain("tok");
  });

  it("discord: 429 is retryable after retry_after from the body", async () => {
    const { outcome } = await sendTo("discord", [
      {
        status: 429,
        headers: { "retry-after": "1", "content-type": "application/json" },
        body: '{"message": "You are being rate limited.", "retry_after": 2.5, "global": false}',
      },
    ]);
    expect(outcome).toMatchObject({
      code: "SINK_HTTP_STATUS",
      retryable: true,
      retryAfterMs: 2500,
    });
  });

  it("discord: 429 with only a Retry-After header still gives the wait", async () => {
    const { outcome } = await sendTo("discord", [{ status: 429, headers: { "retry-after": "3" } }]);
    expect(outcome).toMatchObject({ retryable: true, retryAfterMs: 3000 });
  });

  it.each([
    [410, "channel_is_archived"],
    [404, "channel_not_found"],
    [403, "action_prohibited"],
    [400, "invalid_payload"],
  ])("slack: %i %s is not retryable and named", async (status, code) => {
    const { outcome } = await sendTo("slack", [{ status, body: code }]);
    expect(outcome).toMatchObject({ code: "SINK_HTTP_STATUS", retryable: false });
    expect((outcome as Error).message).toContain(code);
    expect((outcome as Error).message).not.toContain("secret");
  });

  it.each([500, 503])("slack: %i is retryable", async (status) => {
    const { outcome } = await sendTo("slack", [{ status, body: "rollup_error" }]);
    expect(outcome).toMatchObject({ code: "SINK_HTTP_STATUS", retryable: true });
  });

  it("teams: 400 from the flow is not retryable", async () => {
    const { outcome } = await sendTo("teams", [{ status: 400, body: "bad request" }]);
    expect(outcome).toMatchObject({ code: "SINK_HTTP_STATUS", retryable: false });
    expect((outcome as Error).message).not.toContain("sig=s");
  });

  it("a Stop notification reaches Slack too (smoke)", async () => {
    const server = await startHttpServer([{ status: 200, body: "ok" }]);
    const options: ChatOptions = { service: "slack", url: `${server.url}/services/x` };
    await chat.send(stop, options, makeContext());
    const sent = JSON.parse(server.requests[0]!.body) as { text: string };
    expect(sent.text).toContain("✅");
  });
});
