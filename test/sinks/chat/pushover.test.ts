// Pushover against a local stand-in of https://api.pushover.net (apiUrl), answering as
// https://pushover.net/api documents: {"status":1,"request":…} or 4xx {"status":0,"errors":[…]}.
import { describe, expect, it } from "vitest";
import { chat, type ChatOptions } from "../../../src/sinks/chat/index.js";
import { startHttpServer, type Reply } from "../../helpers/http-server.js";
import { attention, failure, stop } from "./notifications.js";
import { sendContext, settle } from "./send-context.js";

const USER = "uQiRzpo4DXghDmr9QzzfQu27cmVRsG";
const APP = "azGDORePK8gMaC0QOYAMyEEuzJnyUi";
const OK: Reply = {
  status: 200,
  body: '{"status":1,"request":"647d2300-702c-4b38-8b2f-d56326ae460b"}',
};

async function sendTo(replies: Reply[], n = stop, extra: Record<string, unknown> = {}) {
  const server = await startHttpServer(replies);
  const options = {
    service: "pushover",
    url: `pover://${USER}@${APP}`,
    apiUrl: server.url,
    ...extra,
  } as ChatOptions;
  const outcome = await settle(chat.send(n, options, sendContext()));
  const fields = () => Object.fromEntries(new URLSearchParams(server.requests[0]!.body));
  return { server, outcome, fields };
}

describe("pushover against a local server", () => {
  it("pover://USER@TOKEN posts one form to /1/messages.json", async () => {
    const { server, outcome, fields } = await sendTo([OK]);
    expect(outcome).toEqual({ messageId: "647d2300-702c-4b38-8b2f-d56326ae460b" });
    const request = server.requests[0]!;
    expect(request.url).toBe("/1/messages.json");
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(fields()).toMatchObject({ token: APP, user: USER, title: stop.title, priority: "0" });
    expect(fields().retry).toBeUndefined();
  });

  it.each([
    ["a failure", failure],
    ["a permission request", attention],
  ])("%s is an emergency (priority 2 with retry and expire)", async (_name, n) => {
    const { fields } = await sendTo(
      [{ status: 200, body: '{"status":1,"request":"r","receipt":"rcpt"}' }],
      n,
    );
    expect(fields()).toMatchObject({ priority: "2", retry: "60", expire: "3600" });
  });

  it("the emergency receipt is the message id", async () => {
    const { outcome } = await sendTo(
      [{ status: 200, body: '{"status":1,"request":"r","receipt":"rcpt"}' }],
      failure,
    );
    expect(outcome).toMatchObject({ messageId: "rcpt" });
  });

  it("emergency: false keeps failures at high priority", async () => {
    const { fields } = await sendTo([OK], failure, { emergency: false });
    expect(fields()).toMatchObject({ priority: "1" });
  });

  it("status 0 with errors is not retried and quotes the errors", async () => {
    const { outcome } = await sendTo([
      {
        status: 400,
        body: '{"user":"invalid","errors":["user identifier is not a valid user, group, or subscribed user key"],"status":0,"request":"x"}',
      },
    ]);
    expect(outcome).toMatchObject({ code: "SINK_HTTP_STATUS", retryable: false, status: 400 });
    expect((outcome as Error).message).toContain("user identifier is not a valid user");
    expect((outcome as Error).message).not.toContain(USER);
  });

  it("500 is retried", async () => {
    const { outcome } = await sendTo([{ status: 500, body: "" }]);
    expect(outcome).toMatchObject({ retryable: true });
  });

  it("--dry-run shows no key", () => {
    const options = { service: "pushover", url: `pover://${USER}@${APP}` } as ChatOptions;
    const rendered = JSON.stringify(chat.render(failure, options, sendContext().deps));
    expect(rendered).not.toContain(USER);
    expect(rendered).not.toContain(APP);
    expect(chat.describeTarget(options)).toBe("pushover user via https://api.pushover.net");
  });
});

describe("pushover receipts (GET /1/receipts/RECEIPT.json?token=APP)", () => {
  const RECEIPT = "rLqz8Wc3o4Vy7ZxjFf4pNbH2sdDkXa";
  const emergencyOk: Reply = {
    status: 200,
    body: JSON.stringify({ status: 1, request: "r-1", receipt: RECEIPT }),
  };
  const poll = async (reply: Reply) => {
    const server = await startHttpServer([reply]);
    const options = { service: "pushover", url: `pover://${USER}@${APP}`, apiUrl: server.url };
    const answer = await settle(
      chat.poll!(
        { messageId: RECEIPT, notification: failure },
        options as ChatOptions,
        sendContext(),
      ),
    );
    return { server, answer };
  };

  it("an emergency send reports its receipt and the window to ask in; a normal one none", async () => {
    const { outcome } = await sendTo([emergencyOk], failure, {
      retrySeconds: 45,
      expireSeconds: 600,
    });
    expect(outcome).toEqual({
      messageId: RECEIPT,
      watch: { firstSeconds: 10, everySeconds: 45, forSeconds: 600 },
    });
    const plain = await sendTo([emergencyOk], failure, { emergency: false });
    expect(plain.outcome).toEqual({ messageId: RECEIPT });
  });

  it("acknowledged: when and the device, never the user key; the token only in the query", async () => {
    const { server, answer } = await poll({
      status: 200,
      body: JSON.stringify({
        status: 1,
        acknowledged: 1,
        acknowledged_at: 1767323045,
        acknowledged_by: USER,
        acknowledged_by_device: "pixel-8",
        expired: 0,
      }),
    });
    expect(answer).toEqual({
      state: "acknowledged",
      at: "2026-01-02T03:04:05.000Z",
      by: "pixel-8",
    });
    expect(server.requests[0]).toMatchObject({
      method: "GET",
      url: `/1/receipts/${RECEIPT}.json?token=${APP}`,
      body: "",
    });
  });

  it("waiting, expired, and a refused receipt that is not retried (the token not in the error)", async () => {
    const waiting = await poll({ status: 200, body: '{"status":1,"acknowledged":0,"expired":0}' });
    expect(waiting.answer).toEqual({ state: "waiting" });
    const expired = await poll({
      status: 200,
      body: '{"status":1,"acknowledged":0,"expired":1,"expires_at":1767323045}',
    });
    expect(expired.answer).toEqual({ state: "expired", at: "2026-01-02T03:04:05.000Z" });
    const refused = await poll({
      status: 404,
      body: '{"status":0,"errors":["receipt not found; may be invalid or expired"]}',
    });
    expect(refused.answer).toMatchObject({ code: "SINK_HTTP_STATUS", retryable: false });
    expect((refused.answer as Error).message).not.toContain(APP);
    const down = await poll({ status: 503, body: "" });
    expect(down.answer).toMatchObject({ retryable: true });
  });
});
