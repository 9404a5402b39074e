// What a finished turn said: the session's last assistant message (is it an error?), added to
// the SessionIdle fact. Best effort: when the messages cannot be read the
// fact goes out as it is, without them.
import type { TokenUsage } from "../../core/notification.js";
import type { ServiceContext } from "../http.js";
import type { Message, Session } from "../schemas.js";
import { isVisible, newestVisible, orderMessages } from "../message-order.js";
import { listMessages } from "../session-api.js";
import type { SessionIdleFact } from "./detect-sessions.js";

/** Pages of messages read to find the last one (the order is not documented). */
const MAX_MESSAGE_PAGES = 10;
const MAX_TEXT = 1000;

// The session's token use as the list or its GET gave it (no request): every finished turn of a
// wave has it, described or not.
export function usageOf(session: Session | undefined): TokenUsage | undefined {
  const settings = session?.sessionSettings;
  return settings?.inclusiveTokenUsage ?? settings?.tokenUsage;
}

// Fills lastMessage, failure and orderGuessed of `fact` in place (one messages listing).
export async function describeTurn(ctx: ServiceContext, fact: SessionIdleFact): Promise<void> {
  const last = await lastAssistantMessage(ctx, fact.sessionId).catch(() => undefined);
  if (!last?.message) return;
  const text = textOf(last.message);
  if (text) fact.lastMessage = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
  if (last.message.isError === true) fact.failure = true;
  if (last.guessed) fact.orderGuessed = true;
}

// The newest visible assistant message (message-order.ts), and whether the order was guessed.
// Undefined when the list is longer than the pages read and its order is not known (a guess
// would be worse than nothing).
export async function lastAssistantMessage(
  ctx: ServiceContext,
  sessionId: string,
): Promise<{ message: Message | undefined; guessed: boolean } | undefined> {
  const messages: Message[] = [];
  const pages = listMessages(ctx, sessionId, { role: "assistant" }, MAX_MESSAGE_PAGES);
  for await (const message of pages) messages.push(message);
  const newest = newestVisible(messages);
  if (messages.length >= MAX_MESSAGE_PAGES * 100 && newest.guessed) return undefined;
  return newest;
}

// Joins the text parts of a message.
export function textOf(message: Message): string {
  return (message.content ?? [])
    .map((part) => part.text ?? "")
    .join("\n")
    .trim();
}

// The texts of a session's last `count` visible assistant messages, oldest first (an install
// session's account of what failed); [] when they cannot be read.
export async function lastMessageTexts(
  ctx: ServiceContext,
  sessionId: string,
  count: number,
): Promise<string[]> {
  try {
    const messages: Message[] = [];
    const pages = listMessages(ctx, sessionId, { role: "assistant" }, MAX_MESSAGE_PAGES);
    for await (const message of pages) messages.push(message);
    return orderMessages(messages)
      .messages.filter(isVisible)
      .slice(-count)
      .map((m) => textOf(m))
      .filter(Boolean);
  } catch {
    return [];
  }
}
