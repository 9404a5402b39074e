// Acknowledged receipts on the BUILT binary: a local server stands in for Pushover. The worker
// sends a permission request as an emergency message, then asks the receipts API about it; the
// person's acknowledgement becomes an "acknowledged" receipt (when, on which device) that `log`
// shows, and it cancels the notification's follow-up as a click would. The application token,
// which the receipt poll carries in its URL, appears in no log line or outbox file.
import { describe, expect, it } from "vitest";
import { startHttpServer, type Reply } from "../helpers/http-server.js";
import { fixture, runBin, tempHome } from "../helpers/run-bin.js";
import { stateFileTexts, waitUntil } from "../helpers/wait-until.js";

const USER = "uQiRzpo4DXghDmr9QzzfQu27cmVRsG";
const TOKEN = "azGDORePK8gMaC0QOYAMyEEuzJnyUi";
const RECEIPT = "rLqz8Wc3o4Vy7ZxjFf4pNbH2sdDkXa";
// Acknowledged at 2026-01-02T03:04:05Z on the device "pixel-8".
const ACK_AT = Date.UTC(2026, 0, 2, 3, 4, 5) / 1000;

const sent: Reply = {
  status: 200,
  body: JSON.stringify({ status: 1, request: "req-1", receipt: RECEIPT }),
};
const receipt = (fields: Record<string, unknown>): Reply => ({
  status: 200,
  body: JSON.stringify({
    status: 1,
    acknowledged: 0,
    acknowledged_at: 0,
    acknowledged_by: "",
    acknowledged_by_device: "",
    expired: 0,
    expires_at: ACK_AT + 3600,
    request: "req-2",
    ...fields,
  }),
});

function setup(pushoverUrl: string, phoneUrl: string) {
  const home = tempHome({ HOOK_NOTIFY_LOCAL_SINKS: "0" });
  home.writeConfig({
    // Long enough that the first look at the receipt (10 s after sending) comes first.
    escalate: { afterSeconds: 40, to: ["phone"] },
    sinks: {
      pushover: {
        type: "chat",
        service: "pushover",
        user: USER,
        token: TOKEN,
        apiUrl: pushoverUrl,
        retrySeconds: 30,
        expireSeconds: 60,
      },
      phone: { type: "webhook", url: `${phoneUrl}/phone`, events: [] },
    },
  });
  return home;
}

describe("Pushover emergency receipts", () => {
  it("an acknowledged permission request: receipt in log and log --json, follow-up cancelled, token nowhere", async () => {
    const pushover = await startHttpServer([
      sent,
      receipt({
        acknowledged: 1,
        acknowledged_at: ACK_AT,
        acknowledged_by: USER,
        acknowledged_by_device: "pixel-8",
      }),
    ]);
    const phone = await startHttpServer();
    const home = setup(pushover.url, phone.url);
    const hook = await runBin([], {
      input: fixture("claude-code/Notification.json"),
      env: home.env,
    });
    expect(hook).toMatchObject({ code: 0, stdout: "" });
    await waitUntil(
      () => home.logLines().some((l) => l.outbox === "cancelled"),
      "the follow-up cancelled",
      120_000,
    );

    const [message, look] = pushover.requests;
    expect(message).toMatchObject({ method: "POST", url: "/1/messages.json" });
    expect(new URLSearchParams(message?.body).get("priority")).toBe("2");
    expect(look).toMatchObject({
      method: "GET",
      url: `/1/receipts/${RECEIPT}.json?token=${TOKEN}`,
    });
    expect(pushover.requests).toHaveLength(2);
    expect(phone.requests).toEqual([]);

    const id = home.logLines().find((l) => l.event === "Notification")?.id;
    expect(home.logLines()).toContainEqual(
      expect.objectContaining({
        outbox: "receipt",
        sink: "pushover",
        id,
        state: "acknowledged",
        messageId: RECEIPT,
        at: "2026-01-02T03:04:05.000Z",
        by: "pixel-8",
      }),
    );
    expect(home.logLines()).toContainEqual(
      expect.objectContaining({
        outbox: "cancelled",
        sink: "phone",
        id: `${String(id)}.followup`,
        message: expect.stringContaining("the notification was opened") as string,
      }),
    );
    const log = await runBin(["log"], { env: { ...home.env, NO_COLOR: "1" } });
    expect(log.stdout).toMatch(/pushover \(id \w+, acknowledged by pixel-8 at \d\d:\d\d\)/);
    const json = await runBin(["log", "--json"], { env: home.env });
    expect(json.stdout).toContain('"state":"acknowledged"');
    // acknowledged_by is the user key: never read, never written.
    for (const text of [...stateFileTexts(home), log.stdout, json.stdout]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(USER);
    }
  }, 180_000);

  it("an emergency nobody acknowledged: the receipt says expired", async () => {
    const pushover = await startHttpServer([sent, receipt({ expired: 1, expires_at: ACK_AT })]);
    const phone = await startHttpServer();
    const home = setup(pushover.url, phone.url);
    const input = fixture("claude-code/Notification.json", { session_id: "nobody" });
    expect(await runBin([], { input, env: home.env })).toMatchObject({ code: 0, stdout: "" });
    await waitUntil(
      () => home.logLines().some((l) => l.outbox === "receipt"),
      "the receipt line",
      120_000,
    );
    expect(home.logLines()).toContainEqual(
      expect.objectContaining({
        outbox: "receipt",
        sink: "pushover",
        state: "expired",
        at: "2026-01-02T03:04:05.000Z",
      }),
    );
    // Expired is no answer: the follow-up still goes.
    await phone.waitForRequests(1, 120_000);
    expect(pushover.requests).toHaveLength(2);
    for (const text of stateFileTexts(home)) expect(text).not.toContain(TOKEN);
  }, 180_000);
});
