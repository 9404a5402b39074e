// The reply listener (PROTOCOL.md): a background process that reads the bot while some "waiting
// for you" message may still be answered, and ends when none may. It shares the bot with waiting
// approvals the way they share it among themselves (approve/telegram-inbox.ts): whoever holds
// poll.lock long-polls and routes every press it reads before it confirms it.
import { getPresses, type Press } from "../approve/telegram-bot.js";
import { readCallback } from "../approve/telegram-callback.js";
import { askedIn, deliverPress, isUsed, PollSeat, takePresses } from "../approve/telegram-inbox.js";
import { pause } from "../approve/wait.js";
import { judgeConfirm, judgeMessage, type JudgeInput } from "./judge.js";
import { liveFiles } from "./store.js";
import { messageOfReply } from "./telegram.js";

export type ListenInput = JudgeInput;

const MAX_POLL_SECONDS = 25;
const INBOX_PAUSE_MS = 250;

// Runs until no ticket is live (or the call's signal ends it). Throws a Bot API error (401, 409).
export async function listen(input: ListenInput): Promise<void> {
  const { signal } = input.call;
  const seat = new PollSeat(input.inbox, input.now);
  try {
    for (;;) {
      if (signal.aborted) return;
      const { tickets, confirms } = liveFiles(input.inbox, input.now());
      if (tickets.length === 0 && confirms.length === 0) return;
      // Send presses and replies an approve read for us while it polled.
      for (const confirm of confirms)
        for (const press of takePresses(input.inbox, confirm.id)) await onPress(input, press);
      for (const ticket of tickets)
        for (const press of takePresses(input.inbox, ticket.id)) {
          const message = messageOfReply(press);
          if (message) await judgeMessage(input, message);
        }
      if (!seat.take()) {
        await pause(INBOX_PAUSE_MS, signal);
        continue;
      }
      const last = Math.max(
        ...tickets.map((t) => t.expiresAt),
        ...confirms.map((c) => c.expiresAt),
      );
      const waitSeconds = Math.max(
        0,
        Math.min(MAX_POLL_SECONDS, Math.floor((last - input.now()) / 1000)),
      );
      let updates;
      try {
        updates = await getPresses(input.call, seat.offset, waitSeconds);
      } catch (error) {
        if (hasEnded(signal)) return;
        // An approve that took the lock at the same moment: let it poll, read the inbox.
        seat.giveWay(error);
        continue;
      }
      for (const update of updates) {
        seat.passed(update.updateId);
        // A reply comes as approve reads it (a Press with `reply`), a button press as a Press.
        if (update.press?.reply !== undefined) await onMessage(input, update.press);
        else if (update.press) await onPress(input, update.press);
      }
      seat.save();
    }
  } finally {
    seat.leave();
  }
}

// A message: a reply to a waiting message is judged here; a reply to a waiting approval's
// question (a deny with a reason) goes to the inbox file its approve reads.
async function onMessage(input: ListenInput, reply: Press) {
  const message = messageOfReply(reply);
  if (!message) return;
  const asked = message.replyTo === undefined ? undefined : askedIn(input.inbox, message.replyTo);
  const isTicket = liveFiles(input.inbox, input.now()).tickets.some(
    (ticket) => ticket.id === asked?.request,
  );
  const live = asked !== undefined && asked.expiresAt * 1000 > input.now();
  if (live && !isTicket && !isUsed(input.inbox, asked.request)) {
    deliverPress(input.inbox, asked.request, reply);
    return;
  }
  await judgeMessage(input, message);
}

// A press: a reply's Send or Cancel, or an approval's Allow or Deny, which goes to the inbox
// file its approve reads (as approve routes a press that is not its own).
async function onPress(input: ListenInput, press: Press): Promise<void> {
  const verdict = readCallback(input.secret, input.call.setup.chatId, press.data);
  const live = verdict.ok && verdict.expiresAt * 1000 > input.now();
  if (live && press.chatId === input.call.setup.chatId && !isUsed(input.inbox, verdict.request)) {
    const { confirms } = liveFiles(input.inbox, input.now());
    if (!confirms.some((confirm) => confirm.id === verdict.request)) {
      deliverPress(input.inbox, verdict.request, press);
      return;
    }
  }
  await judgeConfirm(input, press);
}

// A function, not a property read: the signal changes while we await, which narrowing cannot see.
function hasEnded(signal: AbortSignal): boolean {
  return signal.aborted;
}
