// Entry point of the reply listener (dist/worker.cjs reply), started detached by the worker (offer.ts):
// wiring only. It reads the bot while a "waiting for you" message may still be answered, types a
// confirmed reply into the agent's pane (listen.ts, judge.ts), logs each reply, and ends when no
// ticket is live: its life is bounded by replySeconds. Never prints anything.
import { resolveSetup, isTelegramSetup } from "../approve/setup.js";
import { openInbox } from "../approve/telegram-inbox.js";
import { loadConfig } from "../config/load-config.js";
import { createDeps } from "../deps.js";
import { journal } from "../journal/append.js";
import { machineKey } from "../machine-key.js";
import { inertText } from "../shown-text.js";
import { stateDir } from "../state-dir.js";
import type { ReplyNote } from "./judge.js";
import { listen } from "./listen.js";
import { liveFiles, targetWords } from "./store.js";
import { releaseListenerLock, takeListenerLock } from "./listener-process.js";

const deps = createDeps();

async function main(): Promise<void> {
  const config = loadConfig(deps, {});
  const sinkName = config.value.replySink;
  if (sinkName === undefined) return;
  const setup = resolveSetup({ ...config.value, approveSink: sinkName });
  if ("problem" in setup || !isTelegramSetup(setup)) return;
  const inbox = openInbox(stateDir(deps), setup.botToken);
  const stop = new AbortController();
  const note = (reply: ReplyNote) => {
    journal(
      deps,
      {
        outbox: "receipt",
        sink: reply.ticket?.sinkName ?? sinkName,
        ...(reply.ticket ? { id: reply.ticket.notificationId } : {}),
        state: reply.outcome === "typed" ? "acknowledged" : "unknown",
        reason: describeNote(reply),
        by: `telegram chat ${setup.chatId}`,
        ...(reply.text === undefined ? {} : { text: reply.text }),
      },
      config.secrets,
    );
  };
  // A ticket written while the last one ended is not left without a listener: look again.
  while (takeListenerLock(inbox)) {
    try {
      await listen({
        call: { setup, signal: stop.signal, env: deps.env },
        inbox,
        secret: machineKey(deps),
        platform: deps.platform,
        now: deps.now,
        note,
        cloud: { service: config.value.service, env: deps.env },
      });
    } finally {
      releaseListenerLock(inbox);
    }
    if (liveFiles(inbox, deps.now()).tickets.length === 0) return;
  }
}

// One line for `hook-notify log`: what became of the reply, its text (inert, short) and where.
function describeNote(reply: ReplyNote): string {
  const text =
    reply.text === undefined
      ? ""
      : ` ${JSON.stringify(inertText(reply.text, "line").slice(0, 80))}`;
  const where = reply.ticket ? ` (${targetWords(reply.ticket)})` : "";
  return `reply ${reply.outcome}: ${reply.reason}${text}${where}`;
}

main().catch(() => undefined);
