// The Bot API calls a reply needs beyond approve's (approve/telegram-bot.ts): getUpdates for
// messages as well as button presses, and the confirmation message with Send and Cancel buttons.
import { callBot, toPress, toReply, type BotCall, type Press } from "../approve/telegram-bot.js";
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

export interface ReplyUpdate {
  updateId: number;
  press?: Press | undefined;
  message?: ChatMessage | undefined;
  /** The same message as approve reads a reply (approve/telegram-bot.ts), to route it there. */
  reply?: Press | undefined;
}

// getUpdates for messages and presses (long polling, `waitSeconds` on the server).
export async function getReplyUpdates(
  call: BotCall,
  offset: number | undefined,
  waitSeconds: number,
): Promise<ReplyUpdate[]> {
  const result = await callBot(call, "getUpdates", {
    ...(offset === undefined ? {} : { offset }),
    timeout: waitSeconds,
    allowed_updates: ["message", "callback_query"],
  });
  if (!Array.isArray(result)) return [];
  return result.flatMap((raw: unknown) => {
    const update = raw as {
      update_id?: unknown;
      callback_query?: unknown;
      message?: unknown;
    } | null;
    if (typeof update?.update_id !== "number") return [];
    return [
      {
        updateId: update.update_id,
        press: toPress(update.callback_query),
        message: toMessage(update.message),
        reply: toReply(update.message),
      },
    ];
  });
}

function idText(value: unknown): string {
  return typeof value === "number" || typeof value === "string" ? String(value) : "";
}

// A reply an approve read and routed here (its Press form) as the message it was.
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

function toMessage(raw: unknown): ChatMessage | undefined {
  const message = raw as {
    message_id?: unknown;
    text?: unknown;
    chat?: { id?: unknown };
    from?: { id?: unknown };
    reply_to_message?: { message_id?: unknown };
  } | null;
  if (typeof message?.message_id !== "number") return undefined;
  const replyTo = message.reply_to_message?.message_id;
  return {
    chatId: idText(message.chat?.id),
    messageId: message.message_id,
    text: typeof message.text === "string" ? message.text : undefined,
    replyTo: typeof replyTo === "number" ? replyTo : undefined,
    fromId: typeof message.from?.id === "number" ? message.from.id : undefined,
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
  confirm: { id: string; text: string; expiresAt: number; replyTo: number; pane: string },
): Promise<void> {
  const expiry = Math.floor(confirm.expiresAt / 1000);
  const button = (label: string, decision: "allow" | "deny") => ({
    text: label,
    callback_data: callbackData(secret, call.setup.chatId, confirm.id, expiry, decision),
  });
  await callBot(call, "sendMessage", {
    chat_id: call.setup.chatId,
    text: `Type this into the agent's terminal (tmux pane ${confirm.pane}), then Enter?\n\n${inertText(confirm.text, "line")}`,
    reply_parameters: { message_id: confirm.replyTo, allow_sending_without_reply: true },
    link_preview_options: { is_disabled: true },
    reply_markup: { inline_keyboard: [[button("⌨️ Send", "allow"), button("✖️ Cancel", "deny")]] },
  });
}
