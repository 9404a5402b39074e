// Acknowledgements the worker asks for: a sink that sent a message a person acknowledges
// (Pushover's emergency priority) reports a window; the worker then asks the service about that
// message now and then (an outbox entry with `watch`, due at its next look) until the person
// acknowledged it, it expired, or its window is over. What it learns becomes a receipt line
// ("acknowledged" cancels the notification's follow-ups, as a click does: delivery/receipts.ts).
import { deadline } from "../abort.js";
import { DEFAULT_SINK_TIMEOUT_MS } from "../core/defaults.js";
import type { ReceiptAnswer, ReceiptWindow } from "../core/receipt.js";
import type { Deps } from "../deps.js";
import { toHookNotifyError } from "../errors.js";
import { journal } from "../journal/append.js";
import type { OutboxPaths } from "../outbox/paths.js";
import { receiptRecorder } from "./receipts.js";
import { enqueue, removeEntry, writeEntry, type OutboxEntry } from "../outbox/store.js";
import { scrub } from "../redact.js";
import { entrySink, type ConfigCache } from "./deliver-entry.js";

// Queues the first look at a sent message's receipt. Best effort: without it the message was
// still delivered; only its acknowledgement goes unrecorded.
export async function queueReceiptWatch(
  entry: OutboxEntry,
  sent: { messageId: string; window: ReceiptWindow },
  deps: Deps,
): Promise<void> {
  const now = deps.now();
  const { messageId, window } = sent;
  await enqueue(deps, {
    notification: entry.notification,
    sinkName: entry.sinkName,
    configPath: entry.configPath,
    projectDir: entry.projectDir,
    notBefore: now + window.firstSeconds * 1000,
    watch: {
      messageId,
      everyMs: window.everySeconds * 1000,
      untilMs: now + window.forSeconds * 1000,
    },
  }).catch(() => undefined);
}

/** What one look did: the receipt found (its state), another look queued, or the watch ended. */
export interface LookResult {
  state: ReceiptAnswer["state"] | "stopped";
  message?: string;
  notBefore?: number;
}

// One look at the entry's receipt. Never throws: an answer is recorded, a failed look is tried
// again at the next interval while the window lasts, a refused one (or one past it) ends it.
export async function lookAtReceipt(
  entry: OutboxEntry & { watch: NonNullable<OutboxEntry["watch"]> },
  deps: Deps,
  run: { paths: OutboxPaths; cache: ConfigCache; signal: AbortSignal },
): Promise<LookResult> {
  const { watch } = entry;
  const secrets: string[] = [];
  const base = { sink: entry.sinkName, id: entry.notification.id, key: entry.key };
  let answer: ReceiptAnswer;
  try {
    answer = await ask(entry, deps, run, secrets);
  } catch (thrown) {
    const error = toHookNotifyError(thrown);
    const message = scrub(error.message, secrets);
    if (error.retryable && deps.now() < watch.untilMs) return again(entry, deps, run, message);
    await removeEntry(run.paths, entry.key);
    const stopped = `stopped asking about the receipt of ${base.id} at ${base.sink}: ${message}`;
    journal(deps, { outbox: "worker", message: stopped }, secrets);
    return { state: "stopped", message: stopped };
  }
  if (answer.state === "waiting") {
    // One look after the window's end: the service then says "expired" (or, late, acknowledged).
    if (deps.now() < watch.untilMs + watch.everyMs) return again(entry, deps, run, "waiting");
    await removeEntry(run.paths, entry.key);
    const stopped = `stopped asking about the receipt of ${base.id} at ${base.sink}: still unanswered after its window`;
    journal(deps, { outbox: "worker", message: stopped }, secrets);
    return { state: "stopped", message: stopped };
  }
  const of = entry.notification.followUp?.of;
  const recorder = receiptRecorder(deps, { sink: base.sink, id: base.id, of }, secrets);
  recorder.report({ ...answer, id: watch.messageId });
  await removeEntry(run.paths, entry.key);
  return { state: answer.state };
}

async function ask(
  entry: OutboxEntry & { watch: NonNullable<OutboxEntry["watch"]> },
  deps: Deps,
  run: { cache: ConfigCache; signal: AbortSignal },
  secrets: string[],
): Promise<ReceiptAnswer> {
  const { sink, sinkEntry, options } = entrySink(entry, deps, { cache: run.cache, secrets });
  if (!sink.poll) {
    const { HookNotifyError } = await import("../errors.js");
    throw new HookNotifyError("CONFIG_INVALID", `${entry.sinkName}: keeps no receipts now`, {
      sink: entry.sinkName,
      retryable: false,
    });
  }
  const timeout = deadline(sinkEntry.timeoutMs ?? DEFAULT_SINK_TIMEOUT_MS, run.signal);
  try {
    const sent = { messageId: entry.watch.messageId, notification: entry.notification };
    return await sink.poll(sent, options, {
      signal: timeout.signal,
      deps,
      sinkName: entry.sinkName,
      wait: true,
    });
  } finally {
    timeout.clear();
  }
}

// The next look, one interval on.
async function again(
  entry: OutboxEntry,
  deps: Deps,
  run: { paths: OutboxPaths },
  message: string,
): Promise<LookResult> {
  const notBefore = deps.now() + (entry.watch?.everyMs ?? 60_000);
  await writeEntry(run.paths, run.paths.pending, { ...entry, notBefore });
  return { state: "waiting", message, notBefore };
}
