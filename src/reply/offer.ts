// After Telegram took a "waiting for you" message of the reply sink, the worker leaves a ticket
// for it (the message id, the chat, the agent's pane and process, the expiry) and makes sure a
// reply listener runs (one per bot, a detached process that ends when no ticket is live). The
// hook itself never waits for a reply: it returned long before this.
import { resolveSetup, isTelegramSetup } from "../approve/setup.js";
import { newTelegramRequestId } from "../approve/telegram-callback.js";
import { noteMessage, openInbox } from "../approve/telegram-inbox.js";
import { loadConfig } from "../config/load-config.js";
import type { Deps } from "../deps.js";
import type { OutboxEntry } from "../outbox/store.js";
import { stateDir } from "../state-dir.js";
import { paneAgent } from "./pane.js";
import { tmuxPaneOf } from "../tmux-pane.js";
import { saveTicket, type ReplyTicket } from "./store.js";
import { listenerRuns, startListener } from "./listener-process.js";

/** Why no reply can be taken for this message, or the ticket written. */
export type Offered = { ticket: string } | { none: string };

// Writes the ticket and starts the listener when none runs. Never throws.
export async function offerReply(
  entry: OutboxEntry,
  messageId: string | undefined,
  deps: Deps,
): Promise<Offered> {
  try {
    if (!entry.replyTo) return { none: "not a reply sink's waiting message" };
    const target = await replyTarget(entry, deps);
    if ("none" in target) return target;
    const id = Number(messageId);
    if (!Number.isSafeInteger(id)) return { none: "Telegram gave no message id" };
    const config = loadConfig(deps, { configPath: entry.configPath, projectDir: entry.projectDir });
    const setup = resolveSetup({ ...config.value, approveSink: entry.sinkName });
    if ("problem" in setup) return { none: setup.problem };
    if (!isTelegramSetup(setup))
      return { none: `replySink ${entry.sinkName} is not a telegram sink` };
    if ("session" in target && !config.value.service)
      return { none: "a reply to a cloud session needs the config's service" };
    const inbox = openInbox(stateDir(deps), setup.botToken);
    const ticket = newTelegramRequestId();
    const expiresAt = deps.now() + config.value.replySeconds * 1000;
    // An approve that polls meanwhile hands a reply to this message to the listener's inbox.
    noteMessage(inbox, id, { request: ticket, expiresAt: Math.floor(expiresAt / 1000) });
    saveTicket(inbox, {
      id: ticket,
      notificationId: entry.notification.id,
      sinkName: entry.sinkName,
      chatId: setup.chatId,
      messageId: id,
      expiresAt,
      ...target,
    });
    if (!listenerRuns(inbox)) startListener(deps, entry.configPath);
    return { ticket };
  } catch (error) {
    return { none: `the reply could not be offered: ${(error as Error).message}` };
  }
}

// Where a reply to this message goes: a cloud session's notice (hook-notify watch) to that session,
// anything else to the agent's tmux pane, the foreground process it runs now.
async function replyTarget(
  entry: OutboxEntry,
  deps: Deps,
): Promise<Pick<ReplyTicket, "pane" | "session"> | { none: string }> {
  const { notification } = entry;
  if (notification.event === "SessionIdle" && notification.sessionId) {
    const id = notification.sessionId;
    return { session: { id, messageCount: notification.messageCount } };
  }
  const hookPane = entry.replyTo ? tmuxPaneOf(entry.replyTo.env) : undefined;
  if (!hookPane) return { none: "the agent runs in no tmux pane" };
  const pane = await paneAgent(hookPane, deps.platform);
  if (!pane) return { none: `tmux pane ${hookPane.pane} is gone, or its program cannot be told` };
  return { pane };
}
