// The reply protocol (src/reply/PROTOCOL.md) against a local Bot API (test/helpers/telegram-server.ts)
// and a real tmux pane whose program writes every line it reads to a file: a reply is typed only
// after the signed Send press of its confirmation, from the configured chat, once, before it
// expires, while the pane runs the same agent. Forged, replayed, expired, other-chat, changed-owner
// and control-character replies each type nothing, and the phone is told why where it can be.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { callbackData } from "../../src/approve/telegram-callback.js";
import {
  deliverPress,
  noteMessage,
  openInbox,
  takePresses,
  type Inbox,
} from "../../src/approve/telegram-inbox.js";
import { processStart } from "../../src/process-start.js";
import type { ReplyNote } from "../../src/reply/judge.js";
import type { ReplyPane } from "../../src/reply/pane.js";
import { saveTicket } from "../../src/reply/store.js";
import { inertReply } from "../../src/reply/text.js";
import { hasTmux } from "../helpers/real-tmux.js";
import { runListener } from "../helpers/reply-listener.js";
import {
  startFakeTelegram,
  type FakeTelegram,
  type TelegramMessage,
} from "../helpers/telegram-server.js";

const TOKEN = "123456789:AAreplyProtocolTestToken_0123456789";
const CHAT = 515151;
const SECRET = Buffer.alloc(32, 7);

interface World {
  bot: FakeTelegram;
  inbox: Inbox;
  pane: ReplyPane;
  typed: () => string[];
  notes: ReplyNote[];
  /** The bot's "waiting for you" message, with a live ticket for it. */
  waiting: TelegramMessage;
  tmux: (...args: string[]) => string;
  /** Added to the listener's clock (expiry without waiting). */
  skewMs: number;
}

// A tmux server whose one pane runs a stand-in agent: a shell loop that appends each line to a file.
async function setUp(): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), "hook-notify-reply-"));
  const socket = join(dir, "socket");
  const out = join(dir, "typed.txt");
  const tmux = (...args: string[]) =>
    execFileSync("tmux", ["-S", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  tmux(
    "new-session",
    "-d",
    "-s",
    "agent",
    "-x",
    "120",
    "-y",
    "10",
    "sh",
    "-c",
    'while IFS= read -r line; do printf "%s\\n" "$line" >> "$0"; done',
    out,
  );
  onTestFinished(() => {
    try {
      tmux("kill-server");
    } catch {
      // Gone already.
    }
    rmSync(dir, { recursive: true, force: true });
  });
  const paneId = tmux("display-message", "-p", "-t", "agent:0", "#{pane_id}").trim();
  const pid = Number(tmux("display-message", "-p", "-t", paneId, "#{pane_pid}").trim());
  const pane: ReplyPane = { socket, pane: paneId, pid, started: processStart(pid, "linux") ?? "" };
  const bot = await startFakeTelegram({ token: TOKEN });
  const inbox = openInbox(join(dir, "state"), TOKEN);
  await fetch(`${bot.url}/bot${TOKEN}/sendMessage`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ chat_id: CHAT, text: "⏳ Claude Code is waiting for you" }),
  });
  const waiting = bot.messages[0]!;
  saveTicket(inbox, {
    id: "ticketAAAAAAAAAA",
    notificationId: "n1",
    sinkName: "phone",
    chatId: String(CHAT),
    messageId: waiting.message_id,
    expiresAt: Date.now() + 60_000,
    pane,
  });
  const typed = () =>
    existsSync(out) ? readFileSync(out, "utf8").split("\n").filter(Boolean) : [];
  return { bot, inbox, pane, typed, notes: [], waiting, tmux, skewMs: 0 };
}

// Runs the listener until `done` holds, then stops it.
function listening(world: World, done: () => boolean): Promise<void> {
  const now = () => Date.now() + world.skewMs;
  return runListener(world, { token: TOKEN, chat: CHAT, secret: SECRET, now }, done);
}

// The confirmation, before and after its outcome was put on top of it.
const confirmOf = (bot: FakeTelegram) =>
  bot.messages.find((m) => m.text.includes("Type this into the agent's terminal"));
const outcomes = (world: World) => world.notes.map((n) => `${n.outcome}:${n.reason}`);

describe.runIf(hasTmux && process.platform === "linux")("typed reply", () => {
  it("shows the exact text, and types it into the pane on Send", async () => {
    const world = await setUp();
    world.bot.reply(world.waiting, "  run the tests  ");
    await listening(world, () => world.notes.length === 1);
    const confirm = confirmOf(world.bot)!;
    expect(confirm.text).toContain("run the tests");
    expect(world.typed()).toEqual([]);
    world.bot.press(confirm, "⌨️ Send");
    await listening(world, () => world.notes.length === 2);
    expect(world.typed()).toEqual(["run the tests"]);
    expect(outcomes(world)).toEqual(["asked:confirm", "typed:sent"]);
    expect(confirm.text).toMatch(/^✅ Typed into tmux pane %\d+/);
  });

  it("types nothing for a replayed Send, and only once per waiting message", async () => {
    const world = await setUp();
    world.bot.reply(world.waiting, "first");
    world.bot.reply(world.waiting, "second");
    await listening(world, () => world.notes.length === 2);
    const [first, second] = world.bot.messages.filter((m) => m.reply_markup);
    world.bot.press(first!, "⌨️ Send");
    world.bot.press(first!, "⌨️ Send");
    world.bot.press(second!, "⌨️ Send");
    await listening(world, () => world.notes.length === 5);
    expect(world.typed()).toEqual(["first"]);
    expect(outcomes(world).slice(2)).toEqual(["typed:sent", "ignored:replay", "refused:answered"]);
  });

  it("types nothing for a forged press, another chat's reply or press, or a control character", async () => {
    const world = await setUp();
    world.bot.reply(world.waiting, "from a stranger", { chatId: 999 });
    world.bot.reply(world.waiting, "rm -rf ~\u001b[A");
    world.bot.reply(world.waiting, "two\nlines");
    world.bot.reply(world.waiting, "hidden\u202eevil");
    const forged = callbackData(
      Buffer.alloc(32, 9),
      String(CHAT),
      "confirmAAAAAAAAA",
      Math.floor(Date.now() / 1000) + 60,
      "allow",
    );
    world.bot.pressData(forged, CHAT);
    world.bot.reply(world.waiting, "honest");
    await listening(world, () => world.notes.length === 6);
    world.bot.press(confirmOf(world.bot)!, "⌨️ Send", { chatId: 999 });
    await listening(world, () => world.notes.length === 7);
    expect(world.typed()).toEqual([]);
    expect(outcomes(world)).toEqual([
      "ignored:other-chat",
      "refused:text",
      "refused:text",
      "refused:text",
      "ignored:forged",
      "asked:confirm",
      "ignored:other-chat",
    ]);
    const said = world.bot.calls
      .filter((c) => c.method === "sendMessage")
      .map((c) => String(c.body.text));
    expect(said.filter((text) => text.startsWith("Refused:"))).toHaveLength(3);
  });

  it("types nothing once the waiting message expired", async () => {
    const world = await setUp();
    // A later waiting message keeps the listener reading after the first one expired.
    saveTicket(world.inbox, {
      id: "ticketBBBBBBBBBB",
      notificationId: "n2",
      sinkName: "phone",
      chatId: String(CHAT),
      messageId: 9999,
      expiresAt: Date.now() + 600_000,
      pane: world.pane,
    });
    world.bot.reply(world.waiting, "too late");
    await listening(world, () => world.notes.length === 1);
    world.skewMs = 120_000;
    world.bot.reply(world.waiting, "later still");
    world.bot.press(confirmOf(world.bot)!, "⌨️ Send");
    await listening(world, () => world.notes.length === 3);
    expect(world.typed()).toEqual([]);
    expect(outcomes(world)).toEqual(["asked:confirm", "refused:no-ticket", "refused:expired"]);
    expect(confirmOf(world.bot)!.text).toMatch(/^⌛ Expired/);
  });

  it("refuses, and says why, when the pane no longer runs the agent that waited", async () => {
    const world = await setUp();
    // Another process with its real start: alive, but not the pane's.
    const other = { ...world.pane, pid: process.pid, started: processStart(process.pid, "linux")! };
    saveTicket(world.inbox, {
      id: "ticketAAAAAAAAAA",
      notificationId: "n1",
      sinkName: "phone",
      chatId: String(CHAT),
      messageId: world.waiting.message_id,
      expiresAt: Date.now() + 60_000,
      pane: other,
    });
    world.bot.reply(world.waiting, "run the tests");
    await listening(world, () => world.notes.length === 1);
    world.bot.press(confirmOf(world.bot)!, "⌨️ Send");
    await listening(world, () => world.notes.length === 2);
    expect(world.typed()).toEqual([]);
    expect(outcomes(world)[1]).toBe("refused:pane");
    expect(confirmOf(world.bot)!.text).toContain("runs another program now");
  });
});

describe.runIf(hasTmux && process.platform === "linux")("sharing the bot with approvals", () => {
  it("hands a waiting approval's press to that approval's inbox, and types nothing", async () => {
    const world = await setUp();
    const expiry = Math.floor(Date.now() / 1000) + 60;
    const allow = callbackData(SECRET, String(CHAT), "requestAAAAAAAAA", expiry, "allow");
    world.bot.pressData(allow, CHAT);
    await listening(world, () =>
      existsSync(join(world.inbox.dir, "inbox", "requestAAAAAAAAA.json")),
    );
    const routed = takePresses(world.inbox, "requestAAAAAAAAA");
    expect(routed.map((press) => press.data)).toEqual([allow]);
    expect(world.notes).toEqual([]);
    expect(world.typed()).toEqual([]);
  });
});

describe.runIf(hasTmux && process.platform === "linux")("replies shared with approvals", () => {
  it("hands a reply to a waiting approval's question to that approval's inbox", async () => {
    const world = await setUp();
    noteMessage(world.inbox, 555, {
      request: "requestBBBBBBBBB",
      expiresAt: Math.floor(Date.now() / 1000) + 60,
    });
    const question = { message_id: 555, date: 0, chat: { id: CHAT, type: "private" }, text: "?" };
    world.bot.reply(question, "no, use pnpm");
    await listening(world, () =>
      existsSync(join(world.inbox.dir, "inbox", "requestBBBBBBBBB.json")),
    );
    expect(takePresses(world.inbox, "requestBBBBBBBBB").map((press) => press.reply)).toEqual([
      "no, use pnpm",
    ]);
    expect(world.notes).toEqual([]);
  });

  it("judges a reply to a waiting message that an approve read and routed here", async () => {
    const world = await setUp();
    deliverPress(world.inbox, "ticketAAAAAAAAAA", {
      id: "reply 777",
      reply: "run the tests",
      replyTo: world.waiting.message_id,
      chatId: String(CHAT),
    });
    await listening(world, () => world.notes.length === 1);
    expect(outcomes(world)).toEqual(["asked:confirm"]);
    expect(confirmOf(world.bot)?.text).toContain("\n\nrun the tests");
  });
});

describe("inertReply", () => {
  it.each([
    ["run the tests", true],
    [" padded ", true],
    ["", false],
    ["a\tb", false],
    ["a\u0000b", false],
    ["a\u2028b", false],
    ["zero\u200bwidth", false],
    ["x".repeat(501), false],
    ["é".repeat(500), true],
  ])("%j → %s", (text, ok) => {
    expect(inertReply(text).ok).toBe(ok);
  });
});
