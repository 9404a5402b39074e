// A typed reply to a cloud session's "session done" message (src/reply/PROTOCOL.md, "A cloud
// session"), against a local Bot API and the fake service (scripts/fake-service): the confirmed
// text becomes the session's next user message through the service client (`sessions send`'s),
// once, only while the session still has the message count the notice saw; a replayed, forged or
// other chat's press sends nothing, and a session that moved on is refused with the phone told.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { callbackData } from "../../src/approve/telegram-callback.js";
import { openInbox, type Inbox } from "../../src/approve/telegram-inbox.js";
import type { ReplyNote } from "../../src/reply/judge.js";
import { saveTicket } from "../../src/reply/store.js";
import { startFakeService, type FakeService } from "../helpers/fake-service.js";
import { runListener } from "../helpers/reply-listener.js";
import {
  startFakeTelegram,
  type FakeTelegram,
  type TelegramMessage,
} from "../helpers/telegram-server.js";

const TOKEN = "123456789:AAreplyCloudTestToken_0123456789ab";
const CHAT = 525252;
const SECRET = Buffer.alloc(32, 5);
const KEY = "fk-cloud-reply-test-key-0123456789";

interface World {
  bot: FakeTelegram;
  service: FakeService;
  inbox: Inbox;
  waiting: TelegramMessage;
  notes: ReplyNote[];
}

// The bot's "session done" message for sess-idle, with a live ticket naming that session.
async function setUp(): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), "hook-notify-reply-cloud-"));
  onTestFinished(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const service = await startFakeService({ apiKey: KEY });
  const bot = await startFakeTelegram({ token: TOKEN });
  const inbox = openInbox(join(dir, "state"), TOKEN);
  await fetch(`${bot.url}/bot${TOKEN}/sendMessage`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ chat_id: CHAT, text: "Session done: Write the release notes" }),
  });
  const waiting = bot.messages[0]!;
  const session = service.state.sessions.find((s) => s.sessionId === "sess-idle");
  saveTicket(inbox, {
    id: "ticketCCCCCCCCCC",
    notificationId: "n-cloud",
    sinkName: "phone",
    chatId: String(CHAT),
    messageId: waiting.message_id,
    expiresAt: Date.now() + 60_000,
    session: { id: "sess-idle", messageCount: session?.messageCount as number },
  });
  return { bot, service, inbox, waiting, notes: [] };
}

function listening(world: World, done: () => boolean): Promise<void> {
  const cloud = { service: { baseUrl: world.service.url, apiKey: KEY }, env: {} };
  const options = { token: TOKEN, chat: CHAT, secret: SECRET, now: () => Date.now() };
  return runListener(world, options, done, cloud);
}

const confirmOf = (bot: FakeTelegram) =>
  bot.messages.find((m) => m.text.startsWith("Send this to the cloud session sess-idle"));
const outcomes = (world: World) => world.notes.map((n) => `${n.outcome}:${n.reason}`);

describe("typed reply to a cloud session", () => {
  it("sends the confirmed text as the session's next message, once", async () => {
    const world = await setUp();
    world.bot.reply(world.waiting, "  and update the changelog  ");
    await listening(world, () => world.notes.length === 1);
    const confirm = confirmOf(world.bot)!;
    expect(confirm.text).toBe(
      "Send this to the cloud session sess-idle as its next message?\n\nand update the changelog",
    );
    expect(world.service.sent ?? []).toEqual([]);
    const send = confirm.reply_markup?.inline_keyboard[0]?.[0]?.callback_data ?? "";
    world.bot.press(confirm, "⌨️ Send");
    world.bot.pressData(send, CHAT, confirm.message_id);
    world.bot.pressData(send, 999, confirm.message_id);
    await listening(world, () => world.notes.length === 4);
    expect(world.service.sent).toEqual([
      { sessionId: "sess-idle", body: { text: "and update the changelog" } },
    ]);
    expect(outcomes(world)).toEqual([
      "asked:confirm",
      "typed:sent",
      "ignored:replay",
      "ignored:other-chat",
    ]);
    expect(confirm.text).toMatch(/^✅ Sent to cloud session sess-idle:/);
  });

  it("refuses a session that has new messages since, and a forged press; sends nothing", async () => {
    const world = await setUp();
    world.bot.reply(world.waiting, "ship it");
    await listening(world, () => world.notes.length === 1);
    world.bot.pressData(
      callbackData(Buffer.alloc(32, 9), String(CHAT), "confirmAAAAAAAAA", 4_102_444_800, "allow"),
      CHAT,
    );
    // Someone answered the session in the app meanwhile.
    world.service.apply({
      op: "message",
      sessionId: "sess-idle",
      role: "user",
      text: "done, thanks",
    });
    world.bot.press(confirmOf(world.bot)!, "⌨️ Send");
    await listening(world, () => world.notes.length === 3);
    expect(outcomes(world)).toEqual(["asked:confirm", "ignored:forged", "refused:session"]);
    expect((world.service.sent ?? []).filter((s) => s.body.text === "ship it")).toEqual([]);
    const refused = world.bot.calls.find(
      (c) => c.method === "answerCallbackQuery" && String(c.body.text).startsWith("Refused:"),
    );
    expect(String(refused?.body.text)).toContain("new messages since");
  });
});
