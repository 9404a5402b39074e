// Runs the reply listener (src/reply/listen.ts) in the test's process against a local Bot API
// until `done` holds, then stops it: the protocol tests' one way to let it read and act.
import { expect } from "vitest";
import type { TelegramSetup } from "../../src/approve/setup.js";
import type { Inbox } from "../../src/approve/telegram-inbox.js";
import type { JudgeInput, ReplyNote } from "../../src/reply/judge.js";
import { listen } from "../../src/reply/listen.js";

export interface ListenerWorld {
  bot: { url: string };
  inbox: Inbox;
  notes: ReplyNote[];
}

export async function runListener(
  world: ListenerWorld,
  options: { token: string; chat: number; secret: Buffer; now: () => number },
  done: () => boolean,
  cloud: JudgeInput["cloud"] = { service: undefined, env: {} },
): Promise<void> {
  const stop = new AbortController();
  const setup: TelegramSetup = {
    service: "telegram",
    sinkName: "phone",
    seconds: 60,
    when: "always",
    api: world.bot.url,
    botToken: options.token,
    chatId: String(options.chat),
  };
  const running = listen({
    call: { setup, signal: stop.signal, env: {} },
    inbox: world.inbox,
    secret: options.secret,
    platform: "linux",
    now: options.now,
    note: (note) => world.notes.push(note),
    cloud,
  });
  try {
    for (let i = 0; i < 400 && !done(); i++) await new Promise((r) => setTimeout(r, 25));
  } finally {
    stop.abort();
    await running;
  }
  expect(done()).toBe(true);
}
