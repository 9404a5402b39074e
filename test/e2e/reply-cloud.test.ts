// A typed reply to a cloud session, end to end through the built binary: `hook-notify watch`
// announces a session that finished a turn (the fake service, scripts/fake-service) to a local
// Bot API sink named by replySink; the worker leaves a ticket naming the session and starts the
// reply listener (dist/worker.cjs reply), which shows the reply for confirmation; the Send press makes it
// the session's next user message, through the same client `sessions send` uses.
import { describe, expect, it } from "vitest";
import { startFakeService, workerDone } from "../helpers/fake-service.js";
import { runBin, tempHome } from "../helpers/run-bin.js";
import { writeApproveKey } from "../helpers/telegram-approve.js";
import { startFakeTelegram } from "../helpers/telegram-server.js";
import { waitUntil } from "../helpers/wait-until.js";

const TOKEN = "123456789:AAreplyCloudEndToEndToken_0123456";
const CHAT = 626262;
const KEY = "fk-reply-cloud-e2e-key-0123456789ab";

describe("typed reply to a cloud session (built binary)", () => {
  it("a confirmed reply to a 'session done' message becomes the session's next message", async () => {
    const service = await startFakeService({ apiKey: KEY });
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = tempHome({ FACTORY_API_KEY: KEY });
    home.writeConfig({
      sinks: {
        phone: {
          type: "chat",
          service: "telegram",
          botToken: TOKEN,
          chatId: CHAT,
          apiUrl: bot.url,
        },
      },
      replySink: "phone",
      service: { baseUrl: service.url, apiKey: "${FACTORY_API_KEY}" },
    });
    writeApproveKey(home, "f".repeat(64));
    expect((await runBin(["watch", "--once"], { env: home.env })).code).toBe(0);
    service.apply([
      { op: "message", sessionId: "sess-idle", role: "user", text: "and the changelog?" },
      { op: "message", sessionId: "sess-idle", role: "assistant", text: "Changelog written." },
    ]);
    expect((await runBin(["watch", "--once"], { env: home.env })).code).toBe(0);
    const done = await bot.waitForMessage(1, 60_000);
    expect(done.text).toContain("Write the release notes");
    await waitUntil(
      () => home.logLines().some((l) => l.outbox === "delivered" && l.sink === "phone"),
      "the notice to be delivered",
    );
    bot.reply(done, "now open the PR");
    const confirm = await bot.waitForMessage(2, 60_000);
    expect(confirm.text).toBe(
      "Send this to the cloud session sess-idle as its next message?\n\nnow open the PR",
    );
    bot.press(confirm, "⌨️ Send");
    await waitUntil(() => (service.sent ?? []).length > 0, "the message to reach the session");
    expect(service.sent).toEqual([{ sessionId: "sess-idle", body: { text: "now open the PR" } }]);
    await waitUntil(
      () => home.logLines().some((l) => String(l.reason).startsWith("reply typed")),
      "the reply to be logged",
    );
    const typed = home.logLines().find((l) => String(l.reason).startsWith("reply typed"));
    expect(typed).toMatchObject({ outbox: "receipt", sink: "phone", text: "now open the PR" });
    expect(String(typed?.reason)).toContain("(cloud session sess-idle)");
    await workerDone(home.dir);
  });
});
