// What a reply message and a Send press are allowed to do (PROTOCOL.md). A message is taken only
// from the configured chat, as a Telegram reply to a live "waiting for you" message that has not
// been answered, with text that is one plain line; it is never typed itself: the phone is shown
// exactly the text and asked to confirm it. Only the signed Send press of that confirmation, in
// the same chat, before the expiry, once, and while the pane still runs the same agent, types.
import { withDeadline } from "../abort.js";
import type { BotCall, Press } from "../approve/telegram-bot.js";
import { newTelegramRequestId, readCallback } from "../approve/telegram-callback.js";
import { markUsed, isUsed, type Inbox } from "../approve/telegram-inbox.js";
import { tell } from "../approve/telegram-wait.js";
import { sendToSession, sessionRefusal, type CloudReach } from "./cloud.js";
import { paneRefusal, typeIntoPane } from "./pane.js";
import {
  liveFiles,
  loadConfirm,
  loadTicket,
  saveConfirm,
  targetWords,
  type ReplyTicket,
} from "./store.js";
import { inertReply } from "./text.js";
import { askToConfirm, say, type ChatMessage } from "./telegram.js";

/** One thing that happened to a reply, for the log. */
export interface ReplyNote {
  outcome: "asked" | "typed" | "refused" | "cancelled" | "ignored";
  /** Why it was refused or ignored: other-chat, forged, replay, expired, answered, no-ticket, … */
  reason: string;
  ticket?: ReplyTicket | undefined;
  /** What was (or would have been) typed. */
  text?: string | undefined;
}

/** What judging a message or a press needs (the listener's input). */
export interface JudgeInput {
  call: BotCall;
  inbox: Inbox;
  secret: Buffer;
  platform: NodeJS.Platform;
  now: () => number;
  note: (note: ReplyNote) => void;
  /** The config's service and the environment: a cloud session's reply goes through them. */
  cloud: Omit<CloudReach, "signal">;
}

/** How long reading and answering a cloud session may take. */
const CLOUD_MS = 15_000;

const NOTHING = "Nothing was typed.";

// A message in the chat: a reply to a waiting message gets a confirmation; anything else nothing.
export async function judgeMessage(input: JudgeInput, message: ChatMessage): Promise<void> {
  const { call } = input;
  if (message.replyTo === undefined) return;
  if (message.chatId !== call.setup.chatId) {
    input.note({ outcome: "ignored", reason: "other-chat" });
    return;
  }
  const { tickets } = liveFiles(input.inbox, input.now());
  const ticket = tickets.find((t) => t.messageId === message.replyTo);
  const refuse = async (reason: string, words: string) => {
    await say(call, message.messageId, `${words} ${NOTHING}`).catch(() => undefined);
    input.note({ outcome: "refused", reason, ticket });
  };
  if (!ticket) {
    await refuse(
      "no-ticket",
      'This message takes no reply: only a "waiting for you" message does, until it expires.',
    );
    return;
  }
  if (isUsed(input.inbox, ticket.id)) {
    await refuse("answered", "This message was already answered.");
    return;
  }
  const text = inertReply(message.text);
  if (!text.ok) {
    await refuse("text", `Refused: ${text.reason}.`);
    return;
  }
  const confirm = {
    id: newTelegramRequestId(),
    ticket: ticket.id,
    text: text.text,
    expiresAt: ticket.expiresAt,
  };
  saveConfirm(input.inbox, confirm);
  await askToConfirm(call, input.secret, {
    ...confirm,
    replyTo: message.messageId,
    where: targetWords(ticket),
    cloud: ticket.session !== undefined,
  });
  input.note({ outcome: "asked", reason: "confirm", ticket, text: text.text });
}

// A press on a confirmation: Send types the text it was made for; everything else types nothing.
export async function judgeConfirm(input: JudgeInput, press: Press): Promise<void> {
  const { call } = input;
  const ignored = (reason: string): void => {
    input.note({ outcome: "ignored", reason });
  };
  if (press.chatId !== call.setup.chatId) {
    ignored("other-chat");
    return;
  }
  const verdict = readCallback(input.secret, call.setup.chatId, press.data);
  if (!verdict.ok) {
    ignored(verdict.reason);
    return;
  }
  if (verdict.expiresAt * 1000 <= input.now()) {
    await tell(call, press, `This has expired. ${NOTHING}`, `⌛ Expired. ${NOTHING}`);
    input.note({ outcome: "refused", reason: "expired" });
    return;
  }
  const confirm = loadConfirm(input.inbox, verdict.request);
  if (!confirm) {
    ignored("no-confirm");
    return;
  }
  const ticket = loadTicket(input.inbox, confirm.ticket);
  const refuse = async (reason: string, words: string): Promise<undefined> => {
    await tell(call, press, words.slice(0, 200), `⛔ ${words}`);
    input.note({ outcome: "refused", reason, ticket, text: confirm.text });
  };
  if (!markUsed(input.inbox, confirm.id)) {
    await tell(call, press, `This was already answered. ${NOTHING}`);
    input.note({ outcome: "ignored", reason: "replay", ticket });
    return;
  }
  if (verdict.decision === "deny") {
    await tell(call, press, `Cancelled. ${NOTHING}`, `✖️ Cancelled. ${NOTHING}`);
    input.note({ outcome: "cancelled", reason: "cancel", ticket, text: confirm.text });
    return;
  }
  if (!ticket || ticket.expiresAt <= input.now())
    return refuse("expired", `This has expired. ${NOTHING}`);
  if (!markUsed(input.inbox, ticket.id)) {
    return refuse("answered", `The agent's message was already answered. ${NOTHING}`);
  }
  const where = targetWords(ticket);
  const failed = await withDeadline(CLOUD_MS, (signal) =>
    deliver(ticket, confirm.text, input, { ...input.cloud, signal }),
  );
  if (failed) return refuse(failed.reason, failed.words);
  await tell(
    call,
    press,
    ticket.session ? "Sent to the cloud session." : "Typed into the agent's terminal.",
    ticket.session ? `✅ Sent to ${where}:` : `✅ Typed into ${where}:`,
  );
  input.note({ outcome: "typed", reason: "sent", ticket, text: confirm.text });
}

// Checks the ticket's target still waits (the same agent in the pane, the session unanswered),
// then types or sends the text; what went wrong, or undefined when it is done.
async function deliver(
  ticket: ReplyTicket,
  text: string,
  input: JudgeInput,
  reach: CloudReach,
): Promise<{ reason: string; words: string } | undefined> {
  const where = targetWords(ticket);
  const why = ticket.session
    ? await sessionRefusal(ticket.session, reach)
    : ticket.pane
      ? await paneRefusal(ticket.pane, input.platform)
      : "the ticket names no pane and no session";
  if (why !== undefined) {
    return { reason: ticket.session ? "session" : "pane", words: `Refused: ${why}. ${NOTHING}` };
  }
  try {
    if (ticket.session) await sendToSession(ticket.session, text, reach);
    else if (ticket.pane) await typeIntoPane(ticket.pane, text);
    return undefined;
  } catch {
    return ticket.session
      ? { reason: "service", words: `The service did not take the message for ${where}.` }
      : { reason: "tmux", words: `tmux could not type into ${where}.` };
  }
}
