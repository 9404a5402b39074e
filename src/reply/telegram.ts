// The Bot API calls a reply needs beyond approve's (approve/telegram-bot.ts, whose getUpdates
// reads presses and replies alike): a plain answer, and the confirmation with Send and Cancel.
import { callBot, type BotCall, type Press } from "../approve/telegram-bot.js";
import { callbackData } from "../approve/telegram-callback.js";
import { inertText } from "../shown-text.js";

/** A text message in a chat, and the message it replies to (Message.reply_to_message). */
export interface ChatMessage {
  chatId: string;
  messageId: number;
  text?: string | undefined;
  replyTo?: number | undefined;
  fromId?: number | undefined;
}

// A reply as approve reads it (a Press with `reply`: from getUpdates, or routed by an approve) as
// the message it was.
export function messageOfReply(press: Press): ChatMessage | undefined {
  const messageId = Number(press.id.replace(/^reply /, ""));
  if (press.reply === undefined || !Number.isSafeInteger(messageId)) return undefined;
  return {
    chatId: press.chatId,
    messageId,
    text: press.reply,
    replyTo: press.replyTo,
    fromId: press.fromId,
  };
}

// A plain message in the configured chat, as a reply to `replyTo` (best effort for the caller).
export async function say(call: BotCall, replyTo: number, text: string): Promise<void> {
  await callBot(call, "sendMessage", {
    chat_id: call.setup.chatId,
    text: text.slice(0, 4096),
    reply_parameters: { message_id: replyTo, allow_sending_without_reply: true },
    link_preview_options: { is_disabled: true },
  });
}

// The confirmation: exactly the text that Send will type (plain text, no parse mode), and two
// signed buttons bound to this confirmation, this chat and the ticket's expiry.
export async function askToConfirm(
  call: BotCall,
  secret: Buffer,
  confirm: {
    id: string;
    text: string;
    expiresAt: number;
    replyTo: number;
    /** "tmux pane %3" or "cloud session sess-12". */
    where: string;
    cloud: boolean;
  },
): Promise<void> {
  const expiry = Math.floor(confirm.expiresAt / 1000);
  const button = (label: string, decision: "allow" | "deny") => ({
    text: label,
    callback_data: callbackData(secret, call.setup.chatId, confirm.id, expiry, decision),
  });
  await callBot(call, "sendMessage", {
    chat_id: call.setup.chatId,
    text: `${confirm.cloud ? `Send this to the ${confirm.where} as its next message?` : `Type this into the agent's terminal (${confirm.where}), then Enter?`}\n\n${inertText(confirm.text, "line")}`,
    reply_parameters: { message_id: confirm.replyTo, allow_sending_without_reply: true },
    link_preview_options: { is_disabled: true },
    reply_markup: { inline_keyboard: [[button("⌨️ Send", "allow"), button("✖️ Cancel", "deny")]] },
  });
}
