// What a finished turn said: the session's last assistant message (is it an error?) and its
// token use, added to the SessionIdle fact. Best effort: when the messages cannot be read the
// fact goes out as it is, without them.
import type { TokenUsage } from "../../core/notification.js";
import type { ServiceContext } from "../http.js";
import type { Message, Session } from "../schemas.js";
import { listMessages } from "../session-api.js";
import type { SessionIdleFact } from "./detect-sessions.js";

/** Pages of messages read to find the last one (the order is not documented). */
const MAX_MESSAGE_PAGES = 10;
const MAX_TEXT = 1000;

// Fills lastMessage, failure and tokenUsage of `fact` in place.
export async function describeTurn(
  ctx: ServiceContext,
  fact: SessionIdleFact,
  session: Session | undefined,
): Promise<void> {
  const settings = session?.sessionSettings;
  const usage = (settings?.inclusiveTokenUsage ?? settings?.tokenUsage) as TokenUsage | undefined;
  if (usage) fact.tokenUsage = usage;
  const last = await lastAssistantMessage(ctx, fact.sessionId).catch(() => undefined);
  if (!last) return;
  const text = textOf(last);
  if (text) fact.lastMessage = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
  if (last.isError === true) fact.failure = true;
}

// The newest assistant message: by createdAt when the messages carry it, else the last listed.
// Undefined when the list is longer than the pages read (a guess would be worse than nothing).
export async function lastAssistantMessage(
  ctx: ServiceContext,
  sessionId: string,
): Promise<Message | undefined> {
  const messages: Message[] = [];
  const pages = listMessages(ctx, sessionId, { role: "assistant" }, MAX_MESSAGE_PAGES);
  for await (const message of pages) messages.push(message);
  if (messages.length >= MAX_MESSAGE_PAGES * 100)
    return newestFirst(messages) ? messages[0] : undefined;
  return pickNewest(messages);
}

// Joins the text parts of a message.
export function textOf(message: Message): string {
  return (message.content ?? [])
    .map((part) => part.text ?? "")
    .join("\n")
    .trim();
}

function pickNewest(messages: readonly Message[]): Message | undefined {
  if (messages.every((m) => m.createdAt !== undefined))
    return messages.reduce<Message | undefined>(
      (best, m) => (!best || (m.createdAt ?? 0) >= (best.createdAt ?? 0) ? m : best),
      undefined,
    );
  return messages.at(-1);
}

function newestFirst(messages: readonly Message[]): boolean {
  const a = messages[0]?.createdAt;
  const b = messages.at(-1)?.createdAt;
  return a !== undefined && b !== undefined && a > b;
}

// The texts of a session's last `count` assistant messages, oldest first (an install session's
// account of what failed); [] when they cannot be read.
export async function lastMessageTexts(
  ctx: ServiceContext,
  sessionId: string,
  count: number,
): Promise<string[]> {
  try {
    const messages: Message[] = [];
    const pages = listMessages(ctx, sessionId, { role: "assistant" }, MAX_MESSAGE_PAGES);
    for await (const message of pages) messages.push(message);
    const ordered = newestFirst(messages) ? [...messages].reverse() : messages;
    return ordered
      .slice(-count)
      .map((m) => textOf(m))
      .filter(Boolean);
  } catch {
    return [];
  }
}
