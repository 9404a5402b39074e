// A local Telegram Bot API that implements what approve calls, as the Bot API documentation
// describes it (https://core.telegram.org/bots/api), on 127.0.0.1:0, recording every call:
// POST /bot<token>/<method> with a JSON body, answered {"ok":true,"result":…} or
// {"ok":false,"error_code":…,"description":…}. Methods: sendMessage (inline keyboards, with
// callback_data held to 1-64 bytes), getUpdates (offset confirms every update below it,
// timeout is a long poll, allowed_updates filters, a second getUpdates ends the first with 409
// Conflict, a webhook makes it 409), answerCallbackQuery, editMessageText (without reply_markup
// the keyboard goes), getWebhookInfo. A press makes the callback_query update a phone would; a
// reply makes the message update (with reply_to_message) a phone's swipe-to-reply would.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

export interface TelegramButton {
  text: string;
  callback_data?: string;
}

export interface TelegramMessage {
  message_id: number;
  date: number;
  chat: { id: number; type: string };
  text: string;
  reply_markup?: { inline_keyboard: TelegramButton[][] };
}

export interface TelegramCall {
  method: string;
  body: Record<string, unknown>;
  status: number;
}

export interface FakeTelegram {
  /** The Bot API root for `apiUrl`, e.g. http://127.0.0.1:4567 (no trailing slash). */
  url: string;
  calls: TelegramCall[];
  messages: TelegramMessage[];
  /** getUpdates answered 409 because another getUpdates came in. */
  conflicts: number;
  /** A webhook URL: getUpdates answers 409 while it is set. */
  webhook: string;
  /** normal; hang: never answer; trickle: 200, then a byte every 200 ms; reset: tear down. */
  updatesMode: "normal" | "hang" | "trickle" | "reset";
  sendMode: "normal" | "hang";
  waitForMessage(count?: number, timeoutMs?: number): Promise<TelegramMessage>;
  /** Queues the callback_query of pressing `label` on `message`, as from `chatId` (default: its chat). */
  press(
    message: TelegramMessage,
    label: string,
    from?: { chatId?: number; userId?: number },
  ): string;
  /** Queues the message update of replying `text` to `message`, as from `chatId` (default: its chat). */
  reply(message: TelegramMessage, text: string, from?: { chatId?: number; userId?: number }): void;
  /** Queues a callback_query with any data, as from `chatId`. */
  pressData(data: string, chatId: number, messageId?: number): string;
}

interface Update {
  update_id: number;
  callback_query?: Record<string, unknown>;
  message?: Record<string, unknown>;
}

const TRICKLE_MS = 200;

export async function startFakeTelegram(options: { token: string }): Promise<FakeTelegram> {
  const updates: Update[] = [];
  let nextUpdate = 1;
  let nextMessage = 100;
  let nextQuery = 1;
  let pending:
    { res: ServerResponse; timer: NodeJS.Timeout; offset: number; allowed: string[] } | undefined;
  const waiters = new Set<() => void>();
  const answered = new Set<string>();

  const fake: FakeTelegram = {
    url: "",
    calls: [],
    messages: [],
    conflicts: 0,
    webhook: "",
    updatesMode: "normal",
    sendMode: "normal",
    waitForMessage: (count = 1, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = fake.messages[count - 1];
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
          return found !== undefined;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no message ${count} within ${timeoutMs} ms`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      }),
    press: (message, label, from = {}) => {
      const button = message.reply_markup?.inline_keyboard.flat().find((b) => b.text === label);
      if (button?.callback_data === undefined) throw new Error(`no button ${label}`);
      const chatId = from.chatId ?? message.chat.id;
      return queuePress(button.callback_data, chatId, message, from.userId ?? chatId);
    },
    reply: (message, text, from = {}) => {
      const chatId = from.chatId ?? message.chat.id;
      updates.push({
        update_id: nextUpdate++,
        message: {
          message_id: nextMessage++,
          date: Math.floor(Date.now() / 1000),
          from: { id: from.userId ?? chatId, is_bot: false, first_name: "Phone" },
          chat: { id: chatId, type: chatId < 0 ? "group" : "private" },
          text,
          // A copy as the message was then: the Bot API does not nest a reply's own reply.
          reply_to_message: { ...message },
        },
      });
      setImmediate(flush);
    },
    pressData: (data, chatId, messageId = 1) =>
      queuePress(
        data,
        chatId,
        { message_id: messageId, date: 0, chat: { id: chatId, type: "private" }, text: "" },
        chatId,
      ),
  };

  function queuePress(data: string, chatId: number, message: TelegramMessage, userId: number) {
    const id = `q${nextQuery++}`;
    updates.push({
      update_id: nextUpdate++,
      callback_query: {
        id,
        from: { id: userId, is_bot: false, first_name: "Phone" },
        message: { ...message, chat: { id: chatId, type: chatId < 0 ? "group" : "private" } },
        chat_instance: String(chatId),
        data,
      },
    });
    // On the next turn: presses made together reach one getUpdates together, as a busy bot's do.
    setImmediate(flush);
    return id;
  }

  // A waiting long poll gets the updates at or above its offset as soon as there are some.
  function flush(): void {
    if (!pending) return;
    const ready = updates.filter(
      (u) => u.update_id >= pending!.offset && isAllowed(u, pending!.allowed),
    );
    if (ready.length === 0) return;
    const { res, timer } = pending;
    pending = undefined;
    clearTimeout(timer);
    send(res, 200, { ok: true, result: ready });
  }

  function send(res: ServerResponse, status: number, body: unknown): void {
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }

  const fail = (res: ServerResponse, status: number, description: string) => {
    send(res, status, { ok: false, error_code: status, description });
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(new URL(req.url ?? "/", "http://x").pathname);
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<
          string,
          unknown
        >;
      } catch {
        fail(res, 400, "Bad Request: can't parse JSON");
        return;
      }
      const call: TelegramCall = { method: match?.[2] ?? "", body, status: 200 };
      fake.calls.push(call);
      res.on("finish", () => (call.status = res.statusCode));
      if (!match || match[1] !== options.token) {
        fail(res, match ? 401 : 404, match ? "Unauthorized" : "Not Found");
        return;
      }
      handle(call.method, body, res);
    });
  });

  function handle(method: string, body: Record<string, unknown>, res: ServerResponse): void {
    switch (method) {
      case "sendMessage":
        sendMessage(body, res);
        return;
      case "getUpdates":
        getUpdates(body, res);
        return;
      case "answerCallbackQuery": {
        const id = body.callback_query_id;
        const known = updates.some((u) => u.callback_query?.id === id);
        if (typeof id !== "string" || !known || answered.has(id)) {
          fail(
            res,
            400,
            "Bad Request: query is too old and response timeout expired or query ID is invalid",
          );
          return;
        }
        answered.add(id);
        send(res, 200, { ok: true, result: true });
        return;
      }
      case "editMessageText": {
        const message = fake.messages.find(
          (m) => m.message_id === body.message_id && String(m.chat.id) === String(body.chat_id),
        );
        if (!message || typeof body.text !== "string" || body.text === "") {
          fail(res, 400, "Bad Request: message to edit not found");
          return;
        }
        message.text = body.text;
        if (body.reply_markup === undefined) delete message.reply_markup;
        send(res, 200, { ok: true, result: message });
        return;
      }
      case "getWebhookInfo":
        send(res, 200, {
          ok: true,
          result: {
            url: fake.webhook,
            has_custom_certificate: false,
            pending_update_count: updates.length,
          },
        });
        return;
      default:
        fail(res, 404, "Not Found: method not found");
    }
  }

  function sendMessage(body: Record<string, unknown>, res: ServerResponse): void {
    if (fake.sendMode === "hang") return;
    const chatId = Number(body.chat_id);
    if (
      !Number.isInteger(chatId) ||
      typeof body.text !== "string" ||
      body.text.length === 0 ||
      body.text.length > 4096
    ) {
      fail(res, 400, "Bad Request: message text is empty");
      return;
    }
    const markup = body.reply_markup as { inline_keyboard?: TelegramButton[][] } | undefined;
    for (const button of markup?.inline_keyboard?.flat() ?? []) {
      const size = Buffer.byteLength(button.callback_data ?? "");
      if (size < 1 || size > 64) {
        fail(res, 400, "Bad Request: BUTTON_DATA_INVALID");
        return;
      }
    }
    const message: TelegramMessage = {
      message_id: nextMessage++,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatId, type: chatId < 0 ? "group" : "private" },
      text: body.text,
      ...(markup?.inline_keyboard
        ? { reply_markup: { inline_keyboard: markup.inline_keyboard } }
        : {}),
    };
    fake.messages.push(message);
    for (const waiter of [...waiters]) waiter();
    send(res, 200, { ok: true, result: message });
  }

  function getUpdates(body: Record<string, unknown>, res: ServerResponse): void {
    if (fake.webhook !== "") {
      fail(
        res,
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      );
      return;
    }
    if (fake.updatesMode === "hang") return;
    if (fake.updatesMode === "reset") {
      res.socket?.destroy();
      return;
    }
    if (fake.updatesMode === "trickle") {
      res.writeHead(200, { "content-type": "application/json" });
      const timer = setInterval(() => res.write(" "), TRICKLE_MS);
      res.on("close", () => {
        clearInterval(timer);
      });
      return;
    }
    // "By default, updates starting with the earliest unconfirmed update are returned. An update
    // is considered confirmed as soon as getUpdates is called with an offset higher than its
    // update_id."
    if (typeof body.offset === "number") {
      for (let i = updates.length - 1; i >= 0; i--)
        if (updates[i]!.update_id < body.offset) updates.splice(i, 1);
    }
    const offset = typeof body.offset === "number" ? body.offset : 0;
    const allowed = Array.isArray(body.allowed_updates) ? (body.allowed_updates as string[]) : [];
    if (pending) {
      fake.conflicts++;
      const earlier = pending;
      pending = undefined;
      clearTimeout(earlier.timer);
      fail(
        earlier.res,
        409,
        "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
      );
    }
    const ready = updates.filter((u) => u.update_id >= offset && isAllowed(u, allowed));
    const timeout = typeof body.timeout === "number" ? body.timeout : 0;
    if (ready.length > 0 || timeout <= 0) {
      send(res, 200, { ok: true, result: ready });
      return;
    }
    const timer = setTimeout(() => {
      if (pending?.res === res) pending = undefined;
      send(res, 200, { ok: true, result: [] });
    }, timeout * 1000);
    pending = { res, timer, offset, allowed };
    res.on("close", () => {
      if (pending?.res === res) {
        clearTimeout(timer);
        pending = undefined;
      }
    });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  onTestFinished(async () => {
    if (pending) clearTimeout(pending.timer);
    server.closeAllConnections();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  });
  return fake;
}

// "Specify an empty list to receive all update types except chat_member, message_reaction, and
// message_reaction_count (default)" (getUpdates, allowed_updates).
function isAllowed(update: Update, allowed: string[]): boolean {
  if (allowed.length === 0) return true;
  return Object.keys(update).some((key) => key !== "update_id" && allowed.includes(key));
}
