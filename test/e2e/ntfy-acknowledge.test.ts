// ntfy's Acknowledge button on the BUILT binary, through the worker: a local ntfy stands in for
// the server. The worker publishes a permission request with a button whose body is signed with
// the machine key; the phone's press posts that body to the reply topic; the worker's looks at
// the topic (first 15 s after sending) find it, record "acknowledged" and cancel the queued
// follow-up as a click would. Anything else on the reply topic (a wrong MAC, no MAC, a valid
// acknowledgement of another notification) is ignored: the follow-up goes. The token, the reply
// topic and the key appear in no log line or outbox file.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acknowledgementBody } from "../../src/sinks/chat/ntfy-acknowledge.js";
import { startHttpServer } from "../helpers/http-server.js";
import { pressButton, startFakeNtfy, type FakeNtfy } from "../helpers/ntfy-server.js";
import { fixture, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";
import { stateFileTexts, waitUntil } from "../helpers/wait-until.js";

const TOKEN = "tk_ackacknowledgeacknowledge01";
const TOPIC = "alerts-3f9c";
const REPLY = "acks-7d2e1b";
const KEY = "5a".repeat(32);

function setup(ntfy: FakeNtfy, phoneUrl: string): TempHome {
  const home = tempHome({ HOOK_NOTIFY_LOCAL_SINKS: "0" });
  home.writeConfig({
    // Long enough that the first look at the reply topic (15 s after sending) comes first.
    escalate: { afterSeconds: 40, to: ["phone"] },
    sinks: {
      ntfy: {
        type: "chat",
        service: "ntfy",
        url: `${ntfy.url}/${TOPIC}`,
        token: TOKEN,
        acknowledge: true,
        replyTopic: REPLY,
      },
      phone: { type: "webhook", url: `${phoneUrl}/phone`, events: [] },
    },
  });
  const stateDir = join(home.dir, "state", "hook-notify");
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(join(stateDir, "approve.key"), `${KEY}\n`, { mode: 0o600 });
  return home;
}

// Posts a body to the reply topic as anyone holding the token could.
async function publish(ntfy: FakeNtfy, body: string): Promise<void> {
  const response = await fetch(`${ntfy.url}/${REPLY}`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}` },
    body,
  });
  expect(response.status).toBe(200);
}

function looks(ntfy: FakeNtfy) {
  return ntfy.calls.filter(
    (call) => call.method === "GET" && call.url.startsWith(`/${REPLY}/json`),
  );
}

describe("ntfy Acknowledge button", () => {
  it("a press: acknowledged in log and log --json, follow-up cancelled, secrets nowhere", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const phone = await startHttpServer();
    const home = setup(ntfy, phone.url);
    const hook = await runBin([], {
      input: fixture("claude-code/Notification.json"),
      env: home.env,
    });
    expect(hook).toMatchObject({ code: 0, stdout: "" });

    const message = await ntfy.waitForMessage(TOPIC, 1, 120_000);
    const [button] = message.actions ?? [];
    expect(button).toMatchObject({
      action: "http",
      label: "Acknowledge",
      url: `${ntfy.url}/${REPLY}`,
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(await pressButton(message, "Acknowledge")).toBe(200);
    await waitUntil(
      () => home.logLines().some((l) => l.outbox === "cancelled"),
      "the follow-up cancelled",
      120_000,
    );

    const id = home.logLines().find((l) => l.event === "Notification")?.id;
    expect(JSON.parse(button?.body ?? "")).toMatchObject({ hn: 1, ack: id });
    expect(home.logLines()).toContainEqual(
      expect.objectContaining({
        outbox: "receipt",
        sink: "ntfy",
        id,
        state: "acknowledged",
        messageId: message.id,
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
    expect(phone.requests).toEqual([]);
    const [look] = looks(ntfy);
    expect(look?.url).toMatch(/^\/acks-7d2e1b\/json\?poll=1&since=\d+$/);
    expect(look?.headers.authorization).toBe(`Bearer ${TOKEN}`);

    const log = await runBin(["log"], { env: { ...home.env, NO_COLOR: "1" } });
    expect(log.stdout).toMatch(/ntfy \(id [\w-]+, acknowledged at \d\d:\d\d\)/);
    const json = await runBin(["log", "--json"], { env: home.env });
    expect(json.stdout).toContain('"state":"acknowledged"');
    for (const text of [...stateFileTexts(home, ["approve.key"]), log.stdout, json.stdout]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(REPLY);
      expect(text).not.toContain(KEY);
    }
  }, 240_000);

  it("forged, unsigned or another notification's acknowledgement: ignored, the follow-up goes", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const phone = await startHttpServer();
    const home = setup(ntfy, phone.url);
    const input = fixture("claude-code/Notification.json", { session_id: "forged" });
    expect(await runBin([], { input, env: home.env })).toMatchObject({ code: 0, stdout: "" });

    await ntfy.waitForMessage(TOPIC, 1, 120_000);
    const id = String(home.logLines().find((l) => l.event === "Notification")?.id);
    await publish(ntfy, JSON.stringify({ hn: 1, ack: id, mac: "A".repeat(43) }));
    await publish(ntfy, JSON.stringify({ hn: 1, ack: id }));
    await publish(ntfy, "acknowledged \u202e by mallory");
    // Signed with another key: someone who can post to the topic but lacks this machine's key.
    await publish(ntfy, acknowledgementBody(Buffer.from("a5".repeat(32), "hex"), id));
    // Signed with this machine's key, but for another notification.
    await publish(ntfy, acknowledgementBody(Buffer.from(KEY, "hex"), `${id}-other`));

    // The follow-up (40 s after the hook) comes after at least one look (15 s after sending).
    await phone.waitForRequests(1, 180_000);
    expect(looks(ntfy).length).toBeGreaterThanOrEqual(1);
    const receipts = home.logLines().filter((l) => l.outbox === "receipt" && l.sink === "ntfy");
    expect(receipts.filter((l) => l.state === "acknowledged")).toEqual([]);
    const log = await runBin(["log"], { env: { ...home.env, NO_COLOR: "1" } });
    expect(log.stdout).not.toContain("acknowledged");
    expect(log.stdout).not.toContain("mallory");
    for (const text of stateFileTexts(home, ["approve.key"])) expect(text).not.toContain("mallory");
  }, 240_000);
});
