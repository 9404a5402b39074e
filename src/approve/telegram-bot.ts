// The four Bot API methods approve calls (https://core.telegram.org/bots/api): sendMessage with an
// inline keyboard, getUpdates (long polling), answerCallbackQuery and editMessageText. Each is a
// POST of JSON to <api>/bot<token>/<method>; the answer is {"ok":true,"result":…} or
// {"ok":false,"error_code","description"}. The token is in the path: errors show only the origin.
import { HookNotifyError } from "../errors.js";
import { postRequest } from "../http/post.js";
import { parseJson, shortText } from "../sinks/chat/answer.js";
import { readTelegram } from "../sinks/chat/telegram.js";
import type { TelegramSetup } from "./setup.js";

/** How a call reaches the bot. */
export interface BotCall {
  setup: TelegramSetup;
  signal: AbortSignal;
  env: Readonly<Record<string, string | undefined>>;
}

/** The parts of an Update (type Update, CallbackQuery, Message) approve reads. */
export interface CallbackUpdate {
  updateId: number;
  /** Absent for an update that is not a callback_query. */
  press?: Press | undefined;
}

/** One button press (callback_query with the message it came from), or a typed reply to a
 * request's message (message with reply_to_message: `reply` set, `id` is "reply <message_id>"). */
export interface Press {
  /** callback_query.id: answerCallbackQuery takes it. */
  id: string;
  /** A reply's text as typed (not yet inert). */
  reply?: string | undefined;
  /** The message a reply answers (reply_to_message.message_id). */
  replyTo?: number | undefined;
  data?: string | undefined;
  /** message.chat.id of the message with the button, as text ("" when absent). */
  chatId: string;
  fromId?: number | undefined;
  messageId?: number | undefined;
  /** The message's text, to append the outcome to. */
  text?: string | undefined;
}

// Calls one method; the JSON `result`, or a HookNotifyError naming the method and the fix.
export async function callBot(
  call: BotCall,
  method: string,
  body: Record<string, unknown>,
): Promise<unknown> {
  const { setup } = call;
  const response = await postRequest(
    {
      url: `${setup.api}/bot${setup.botToken}/${method}`,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    },
    { signal: call.signal, env: call.env, sinkName: setup.sinkName },
  );
  if (method === "sendMessage") {
    readTelegram(response, setup.sinkName);
    return parseJson(response.text)?.result;
  }
  const json = parseJson(response.text);
  if (response.status >= 200 && response.status < 300 && json?.ok === true) return json.result;
  const said = shortText(json?.description);
  throw new HookNotifyError(
    response.status === 401 || response.status === 404 ? "SINK_AUTH" : "SINK_HTTP_STATUS",
    `${setup.sinkName}: Telegram answered ${response.status} to ${method}${said === undefined ? "" : ` "${said}"`}: ${hint(response.status)}.`,
    { sink: setup.sinkName, status: response.status, service: "Telegram", retryable: false },
  );
}

// 409 on getUpdates: a webhook is set for the bot, or a program outside hook-notify polls it.
function hint(status: number): string {
  if (status === 409) {
    return "another program reads this bot's updates (a webhook is set, or another getUpdates poller runs with the same token); approve needs a bot of its own: delete the webhook (deleteWebhook) or give approve its own bot";
  }
  if (status === 401 || status === 404)
    return "the bot token was refused: check it with @BotFather";
  return "check the bot token and chatId";
}

// getUpdates for callback queries and messages (a reply denies with a reason), waiting up to `waitSeconds` on the server (long polling).
// Every update below `offset` is confirmed by the call: the caller routes them all first.
export async function getPresses(
  call: BotCall,
  offset: number | undefined,
  waitSeconds: number,
): Promise<CallbackUpdate[]> {
  const result = await callBot(call, "getUpdates", {
    ...(offset === undefined ? {} : { offset }),
    timeout: waitSeconds,
    allowed_updates: ["callback_query", "message"],
  });
  if (!Array.isArray(result)) return [];
  return result.flatMap((raw: unknown) => {
    const update = raw as {
      update_id?: unknown;
      callback_query?: unknown;
      message?: unknown;
    } | null;
    if (typeof update?.update_id !== "number") return [];
    const press = toPress(update.callback_query) ?? toReply(update.message);
    return [{ updateId: update.update_id, press }];
  });
}

// A text message that replies to another one; anything else is no answer.
function toReply(raw: unknown): Press | undefined {
  const message = raw as {
    message_id?: unknown;
    text?: unknown;
    from?: { id?: unknown; is_bot?: unknown };
    chat?: { id?: unknown };
    reply_to_message?: { message_id?: unknown; text?: unknown };
  } | null;
  const to = message?.reply_to_message;
  if (typeof message?.message_id !== "number" || typeof message.text !== "string") return undefined;
  if (typeof to?.message_id !== "number" || message.from?.is_bot === true) return undefined;
  const chat = message.chat?.id;
  return {
    id: `reply ${message.message_id}`,
    reply: message.text,
    replyTo: to.message_id,
    chatId: typeof chat === "number" || typeof chat === "string" ? String(chat) : "",
    fromId: typeof message.from?.id === "number" ? message.from.id : undefined,
    messageId: to.message_id,
    text: typeof to.text === "string" ? to.text : undefined,
  };
}

function toPress(raw: unknown): Press | undefined {
  const query = raw as {
    id?: unknown;
    data?: unknown;
    from?: { id?: unknown };
    message?: { message_id?: unknown; text?: unknown; chat?: { id?: unknown } };
  } | null;
  if (typeof query?.id !== "string") return undefined;
  const chat = query.message?.chat?.id;
  return {
    id: query.id,
    data: typeof query.data === "string" ? query.data : undefined,
    chatId: typeof chat === "number" || typeof chat === "string" ? String(chat) : "",
    fromId: typeof query.from?.id === "number" ? query.from.id : undefined,
    messageId: typeof query.message?.message_id === "number" ? query.message.message_id : undefined,
    text: typeof query.message?.text === "string" ? query.message.text : undefined,
  };
}

// answerCallbackQuery: the phone stops its spinner and shows `text` (0-200 characters).
export async function answerPress(call: BotCall, press: Press, text: string): Promise<void> {
  await callBot(call, "answerCallbackQuery", {
    callback_query_id: press.id,
    text: text.slice(0, 200),
  });
}

// editMessageText without reply_markup: the new text, and the buttons are gone.
export async function editOutcome(call: BotCall, messageId: number, text: string): Promise<void> {
  await callBot(call, "editMessageText", {
    chat_id: call.setup.chatId,
    message_id: messageId,
    text: text.slice(0, 4096),
    link_preview_options: { is_disabled: true },
  });
}
