import { describe, expect, it } from "vitest";
import { HookNotifyError } from "../../src/errors.js";
import {
  assertSuccess,
  postRequest,
  proxyOptions,
  type HttpResponse,
} from "../../src/http/post.js";
import { freePort, startConnectProxy } from "../helpers/connect-proxy.js";
import { startHttpServer } from "../helpers/http-server.js";

const LOCAL = { NO_PROXY: "127.0.0.1,localhost" };
const SECRET_PATH = "/hooks/T0-SECRET-TOKEN-4242";

function ctx(ms = 3_000, env: Record<string, string> = LOCAL) {
  return { signal: AbortSignal.timeout(ms), env, sinkName: "team" };
}

async function rejection(promise: Promise<unknown>): Promise<HookNotifyError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HookNotifyError);
  return error as HookNotifyError;
}

describe("postRequest against a real server", () => {
  it("POSTs the body and headers and returns the answer", async () => {
    const server = await startHttpServer([
      { status: 201, body: "created", headers: { "x-a": "1" } },
    ]);
    const response = await postRequest(
      {
        url: `${server.url}${SECRET_PATH}`,
        headers: { "content-type": "application/json" },
        body: '{"a":1}',
      },
      ctx(),
    );
    expect(response).toMatchObject({ status: 201, text: "created", headers: { "x-a": "1" } });
    expect(server.requests[0]).toMatchObject({ method: "POST", url: SECRET_PATH, body: '{"a":1}' });
    expect(server.requests[0]?.headers["content-type"]).toBe("application/json");
  });

  it("resolves for error statuses and does not follow redirects", async () => {
    const server = await startHttpServer([{ status: 302, headers: { location: "/elsewhere" } }]);
    const response = await postRequest({ url: server.url, headers: {}, body: "x" }, ctx());
    expect(response.status).toBe(302);
    expect(server.requests).toHaveLength(1);
  });

  it("reads at most 64 KiB of a large body", async () => {
    const server = await startHttpServer([{ status: 500, body: "x".repeat(1 << 20) }]);
    const response = await postRequest({ url: server.url, headers: {}, body: "" }, ctx());
    expect(response.text.length).toBe(64 * 1024);
  });

  it("rejects with SINK_TIMEOUT when the server hangs, close to the deadline", async () => {
    const server = await startHttpServer([{ hang: true }]);
    const started = Date.now();
    const error = await rejection(
      postRequest({ url: `${server.url}${SECRET_PATH}`, headers: {}, body: "" }, ctx(300)),
    );
    expect(error.code).toBe("SINK_TIMEOUT");
    expect(error.retryable).toBe(true);
    expect(error.message).not.toContain("SECRET");
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("rejects with SINK_NETWORK on a reset connection and on a refused port", async () => {
    const server = await startHttpServer([{ reset: true }]);
    const reset = await rejection(postRequest({ url: server.url, headers: {}, body: "" }, ctx()));
    expect(reset.code).toBe("SINK_NETWORK");
    const port = await freePort();
    const refused = await rejection(
      postRequest({ url: `http://127.0.0.1:${port}${SECRET_PATH}`, headers: {}, body: "" }, ctx()),
    );
    expect(refused.code).toBe("SINK_NETWORK");
    expect(refused.retryable).toBe(true);
    expect(refused.message).not.toContain("SECRET");
  });

  it("is already aborted: rejects at once without a request", async () => {
    const server = await startHttpServer();
    const signal = AbortSignal.abort();
    const error = await rejection(
      postRequest({ url: server.url, headers: {}, body: "" }, { ...ctx(), signal }),
    );
    expect(error.code).toBe("SINK_TIMEOUT");
    expect(server.requests).toHaveLength(0);
  });
});

describe("postRequest through proxies", () => {
  it("tunnels through HTTP_PROXY from the injected env", async () => {
    const server = await startHttpServer();
    const proxy = await startConnectProxy();
    await postRequest(
      { url: server.url, headers: {}, body: "via proxy" },
      ctx(3_000, { HTTP_PROXY: proxy.url }),
    );
    expect(proxy.tunnels).toEqual([`127.0.0.1:${server.port}`]);
    expect(server.requests[0]?.body).toBe("via proxy");
  });

  it("skips the proxy for NO_PROXY hosts", async () => {
    const server = await startHttpServer();
    const proxy = await startConnectProxy();
    await postRequest(
      { url: server.url, headers: {}, body: "" },
      ctx(3_000, { HTTP_PROXY: proxy.url, NO_PROXY: "127.0.0.1" }),
    );
    expect(proxy.tunnels).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("ends a request stuck in a black-hole proxy at the deadline (dispatcher destroyed)", async () => {
    const proxy = await startConnectProxy({ blackHole: true });
    const started = Date.now();
    const error = await rejection(
      postRequest(
        { url: "https://hooks.example.invalid/x", headers: {}, body: "" },
        ctx(400, { HTTPS_PROXY: proxy.url }),
      ),
    );
    expect(error.code).toBe("SINK_TIMEOUT");
    expect(proxy.tunnels).toEqual(["hooks.example.invalid:443"]);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("prefers lower-case variables, like curl and undici", () => {
    expect(proxyOptions({ http_proxy: "http://a", HTTP_PROXY: "http://b", NO_PROXY: "x" })).toEqual(
      {
        httpProxy: "http://a",
        httpsProxy: "",
        noProxy: "x",
      },
    );
  });
});

describe("assertSuccess", () => {
  const response = (
    status: number,
    text = "",
    headers: Record<string, string> = {},
  ): HttpResponse => ({
    status,
    text,
    headers,
  });
  const check = (r: HttpResponse) => () => {
    assertSuccess(r, { sinkName: "team", service: "Slack" });
  };

  it.each([200, 201, 202, 204])("accepts %i", (status) => {
    expect(check(response(status))).not.toThrow();
  });

  it.each([
    [301, false],
    [400, false],
    [401, false],
    [404, false],
    [408, true],
    [410, false],
    [413, false],
    [425, true],
    [429, true],
    [500, true],
    [502, true],
    [503, true],
  ])("HTTP %i → SINK_HTTP_STATUS, retryable %s", (status, retryable) => {
    const error = (() => {
      try {
        check(response(status))();
      } catch (e) {
        return e as HookNotifyError;
      }
      return undefined;
    })();
    expect(error?.code).toBe("SINK_HTTP_STATUS");
    expect(error?.retryable).toBe(retryable);
    expect(error?.message).toContain(String(status));
  });

  it("takes Retry-After as seconds and keeps ≤ 200 redacted characters of the body", () => {
    const body = `rate limited, see https://hooks.slack.com/services/T0/B0/SECRETTOKEN ${"z".repeat(500)}`;
    let caught: HookNotifyError | undefined;
    try {
      check(response(429, body, { "retry-after": "7" }))();
    } catch (e) {
      caught = e as HookNotifyError;
    }
    expect(caught?.retryAfterMs).toBe(7_000);
    expect(caught?.message).not.toContain("SECRETTOKEN");
    expect(caught?.message).toContain("https://hooks.slack.com/…");
    expect(caught?.message.length).toBeLessThan(400);
  });
});
