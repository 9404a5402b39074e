import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { HookNotifyError } from "../../src/errors.js";
import { webhook, webhookBody, type WebhookOptions } from "../../src/sinks/webhook.js";
import { startHttpServer } from "../helpers/http-server.js";
import { sampleNotification, testDeps } from "../helpers/sample-notification.js";

// 32 random-looking bytes, base64; distinctive so a leak is easy to spot.
const SECRET = `whsec_${Buffer.from("S3CRET-signing-key-0123456789abcd").toString("base64")}`;
const HEADER_SECRET = "Bearer TOPSECRET-header-value-77";
const URL_SECRET = "/in/URLSECRET-token-99";

function send(options: WebhookOptions, ms = 3_000) {
  return webhook.send(sampleNotification(), options, {
    signal: AbortSignal.timeout(ms),
    deps: testDeps(),
    sinkName: "ops",
    wait: true,
  });
}

describe("webhook sink", () => {
  it("sends a signed request that the standardwebhooks library verifies", async () => {
    const server = await startHttpServer();
    await send({
      url: `${server.url}${URL_SECRET}`,
      secret: SECRET,
      headers: { authorization: HEADER_SECRET },
    });
    const [request] = server.requests;
    const headers = request!.headers as Record<string, string>;
    const verified = new Webhook(SECRET).verify(request!.body, headers) as {
      id: string;
      type: string;
    };
    expect(verified.type).toBe("hook.session_end");
    expect(headers["webhook-id"]).toBe(verified.id);
    expect(headers["idempotency-key"]).toBe(verified.id);
    expect(headers.authorization).toBe(HEADER_SECRET);
    expect(headers["user-agent"]).toMatch(/^hook-notify\/\d+\.\d+\.\d+/);
    expect(headers["content-type"]).toBe("application/json");
  });

  it("fails verification when the body is altered (the oracle is real)", async () => {
    const server = await startHttpServer();
    await send({ url: server.url, secret: SECRET });
    const [request] = server.requests;
    expect(() =>
      new Webhook(SECRET).verify(`${request!.body} `, request!.headers as Record<string, string>),
    ).toThrow();
  });

  it("keeps the id and the body bytes across retries; only the timestamp may change", async () => {
    const server = await startHttpServer([{ status: 503 }, { status: 200 }]);
    await expect(send({ url: server.url, secret: SECRET })).rejects.toMatchObject({
      code: "SINK_HTTP_STATUS",
      retryable: true,
    });
    await send({ url: server.url, secret: SECRET });
    const [first, second] = server.requests;
    expect(first!.headers["webhook-id"]).toBe(second!.headers["webhook-id"]);
    expect(first!.body).toBe(second!.body);
  });

  it("writes the documented version-1 body", () => {
    const body = JSON.parse(webhookBody(sampleNotification(), "msg_x")) as Record<string, unknown>;
    expect(body).toEqual({
      schemaVersion: 1,
      id: "msg_x",
      type: "hook.session_end",
      timestamp: "2026-11-22T12:00:00.000Z",
      data: {
        notificationId: "01JDX4Z8N3M6Q2T9V5W7Y0B1C3",
        event: "SessionEnd",
        failure: true,
        level: "failure",
        title: "shop-api · Session ended with an error",
        body: 'Tests failed: <script>alert("x")</script> & more',
        project: "shop-api",
        session: { id: "abc-123", title: "Fix checkout" },
        client: "claude-code",
        cwd: "/home/dev/shop-api",
        reason: "error",
        raw: { hook_event_name: "SessionEnd", session_id: "abc-123", reason: "error" },
      },
    });
  });

  it.each([
    ["Stop", "hook.stop"],
    ["SubagentStop", "hook.subagent_stop"],
    ["PermissionRequest", "hook.permission_request"],
  ] as const)("names event %s as type %s", (event, type) => {
    expect(JSON.parse(webhookBody(sampleNotification({ event }), "m"))).toMatchObject({ type });
  });

  it("maps a 404 to a non-retryable error without the URL's secret", async () => {
    const server = await startHttpServer([{ status: 404, body: "Unknown Webhook" }]);
    const error: unknown = await send({ url: `${server.url}${URL_SECRET}` }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HookNotifyError);
    expect(error).toMatchObject({ code: "SINK_HTTP_STATUS", retryable: false, sink: "ops" });
    expect((error as Error).message).not.toContain("URLSECRET");
  });

  it("passes 429 Retry-After on to the worker", async () => {
    const server = await startHttpServer([{ status: 429, headers: { "retry-after": "3" } }]);
    await expect(send({ url: server.url })).rejects.toMatchObject({
      retryable: true,
      retryAfterMs: 3_000,
    });
  });

  it("times out against a hanging receiver", async () => {
    const server = await startHttpServer([{ hang: true }]);
    await expect(send({ url: server.url }, 300)).rejects.toMatchObject({ code: "SINK_TIMEOUT" });
  });

  it("renders the exact request with every secret masked", () => {
    const options = {
      url: `https://example.com${URL_SECRET}`,
      secret: SECRET,
      headers: { authorization: HEADER_SECRET },
    };
    const rendered = JSON.stringify(webhook.render(sampleNotification(), options, testDeps()));
    for (const secret of [SECRET, HEADER_SECRET, "URLSECRET"])
      expect(rendered).not.toContain(secret);
    expect(rendered).toContain("webhook-signature");
    expect(webhook.describeTarget(options)).toBe("https://example.com/…");
  });

  it.each([
    [{ url: "ftp://example.com/x" }],
    [{ url: "https://example.com", secret: "whsec_tooshort" }],
    [{ url: "https://example.com", headers: { "bad name": "x" } }],
    [{ url: "https://example.com", headers: { x: "a\r\nInjected: 1" } }],
    [{ url: "https://example.com", extra: 1 }],
    [{ url: "json://example.com/in?+X-Token=abc" }],
    [{ url: "jsons://example.com/in?a=1&:key=v" }],
  ])("rejects invalid options %j", (options) => {
    expect(webhook.options.safeParse(options).success).toBe(false);
  });

  it("reads Apprise's json:// as http and jsons:// as https", async () => {
    const server = await startHttpServer();
    await send({ url: server.url.replace("http://", "json://") + "/in?x=1" });
    expect(server.requests[0]!.url).toBe("/in?x=1");
    const options = webhook.options.parse({ url: "jsons://user:pw@example.com/hook" });
    expect(webhook.describeTarget(options)).toBe("https://example.com/…");
  });
});
