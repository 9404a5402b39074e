// doctor's proof of a chat entry, per service, against a local stand-in: the one read-only
// request each makes (never the message endpoint), a good answer, and a refusal that fails.
import { describe, expect, it, onTestFinished } from "vitest";
import { validateConfig } from "../../../src/config/validate-config.js";
import { chat } from "../../../src/sinks/chat/index.js";
import { startHttpServer, type Reply } from "../../helpers/http-server.js";
import { testDeps } from "../../helpers/sample-notification.js";

const USER = "uQiRzpo4DXghDmr9QzzfQu27cmVRsG";
const APP = "azGDORePK8gMaC0QOYAMyEEuzJnyUi";

/** Each service's entry aimed at the stand-in, and the request doctor must make. */
const CASES: {
  service: string;
  entry: (root: string) => Record<string, unknown>;
  request: { method: string; url: string };
  good: Reply;
  refused: Reply;
  proves: "ok" | "reachable";
}[] = [
  {
    service: "telegram",
    entry: (root) => ({ botToken: "123456:ABC-def", chatId: "-100123", apiUrl: root }),
    request: { method: "GET", url: "/bot123456:ABC-def/getMe" },
    good: { status: 200, body: '{"ok":true,"result":{"id":123456,"is_bot":true}}' },
    refused: { status: 401, body: '{"ok":false,"error_code":401,"description":"Unauthorized"}' },
    proves: "ok",
  },
  {
    service: "pushover",
    entry: (root) => ({ user: USER, token: APP, apiUrl: root }),
    request: { method: "POST", url: "/1/users/validate.json" },
    good: { status: 200, body: '{"status":1,"devices":["phone"]}' },
    refused: {
      status: 400,
      body: '{"user":"invalid","errors":["user key is invalid"],"status":0}',
    },
    proves: "ok",
  },
  {
    service: "matrix",
    entry: (root) => ({ url: root, accessToken: "syt_secret_token", roomId: "!room:example.org" }),
    request: { method: "GET", url: "/_matrix/client/v3/account/whoami" },
    good: { status: 200, body: '{"user_id":"@bot:example.org"}' },
    refused: { status: 401, body: '{"errcode":"M_UNKNOWN_TOKEN"}' },
    proves: "ok",
  },
  {
    service: "ntfy",
    entry: (root) => ({ url: `${root}/agent-topic`, token: "tk_secret_token_value" }),
    request: { method: "GET", url: "/v1/account" },
    good: { status: 200, body: '{"username":"phil"}' },
    refused: { status: 401, body: '{"code":40101,"error":"unauthorized"}' },
    proves: "ok",
  },
  {
    service: "ntfy",
    entry: (root) => ({ url: `${root}/agent-topic` }),
    request: { method: "GET", url: "/v1/health" },
    good: { status: 200, body: '{"healthy":true}' },
    refused: { status: 404, body: "page not found" },
    proves: "reachable",
  },
  {
    service: "gotify",
    entry: (root) => ({ url: root, token: "AzyoeNS.D4iJLVa" }),
    request: { method: "GET", url: "/health" },
    good: { status: 200, body: '{"health":"green","database":"green"}' },
    refused: { status: 404, body: "404 page not found" },
    proves: "reachable",
  },
];

async function check(service: string, options: Record<string, unknown>) {
  const validated = validateConfig({ sinks: { phone: { type: "chat", service, ...options } } }, {});
  expect(validated.issues).toEqual([]);
  const entry = validated.value.sinks["phone"];
  if (entry === undefined) throw new Error("no entry");
  return chat.check(entry, { deps: testDeps(), secrets: validated.secrets });
}

describe("doctor proves a chat entry without sending", () => {
  it.each(CASES)("$service $request.url", async (c) => {
    const server = await startHttpServer([c.good, c.refused]);
    onTestFinished(() => server.close());
    const good = await check(c.service, c.entry(server.url));
    expect(good.status).toBe(c.proves);
    if (c.proves === "reachable")
      expect(good.fix).toBe("hook-notify test --sink phone sends one sample");
    const refused = await check(c.service, c.entry(server.url));
    expect(refused.status).toBe("fail");
    expect(refused.detail).toContain(`HTTP ${String((c.refused as { status: number }).status)}`);
    expect(server.requests.map(({ method, url }) => ({ method, url }))).toEqual([
      c.request,
      c.request,
    ]);
    for (const secret of ["ABC-def", USER, APP, "syt_secret_token", "tk_secret_token_value"])
      expect(`${good.detail}${refused.detail}`).not.toContain(secret);
  });

  it("pushover's validate carries the user key and token as a form, as the API wants", async () => {
    const server = await startHttpServer([{ status: 200, body: '{"status":1}' }]);
    onTestFinished(() => server.close());
    await check("pushover", { user: USER, token: APP, apiUrl: server.url });
    expect(new URLSearchParams(server.requests[0]?.body)).toEqual(
      new URLSearchParams({ user: USER, token: APP }),
    );
  });

  it("slack stays reachable only: a webhook proves itself only by posting", async () => {
    const server = await startHttpServer();
    onTestFinished(() => server.close());
    const result = await check("slack", { url: `${server.url}/services/T0/B0/x` });
    expect(result.status).toBe("reachable");
    expect(server.requests).toEqual([]);
  });
});
