// Waits for the one press that answers this request on Telegram, under the run's deadline: as the
// poller (long polling getUpdates, routing every press; telegram-inbox.ts says how approvals share
// the bot) or, while another approve polls, by reading this request's inbox file. A press counts
// only from the configured chat, with a valid MAC, for this request, before its expiry, once.
// A typed reply to the request's message is a deny with that reason, under the same rules (its
// request and expiry come from messages/<id>, written when the question was sent).
// Anything else is logged (and a late or repeated press told so on the phone); nothing else.
import { toHookNotifyError, type HookNotifyError } from "../errors.js";
import type { Answer } from "./answer.js";
import { inertReason } from "./decision.js";
import { answerPress, editOutcome, getPresses, type BotCall, type Press } from "./telegram-bot.js";
import { readCallback } from "./telegram-callback.js";
import {
  askedIn,
  deliverPress,
  type Inbox,
  isUsed,
  markUsed,
  PollSeat,
  takePresses,
} from "./telegram-inbox.js";
import { pause } from "./wait.js";

/** A press that was not taken as this request's answer, and why. */
export interface TelegramRejected {
  reason:
    | "malformed"
    | "forged"
    | "other-chat"
    | "other-request"
    | "replay"
    | "expired"
    | "other-message"
    | "empty-reply";
  message: string;
}

export type TelegramWaitResult =
  | { answer: Answer; press: Press; at: number }
  | { none: "timeout" }
  | { none: "error"; error: HookNotifyError };

export interface TelegramWaitInput {
  call: BotCall;
  inbox: Inbox;
  secret: Buffer;
  requestId: string;
  /** When the run's deadline strikes (epoch ms): the long poll never asks for longer. */
  endsAt: number;
  now: () => number;
  onRejected: (rejected: TelegramRejected) => void;
}

/** How often a waiting approve that is not the poller looks at its inbox file. */
const INBOX_PAUSE_MS = 200;
/** The longest single long poll; then the loop looks at its inbox and the clock again. */
const MAX_POLL_SECONDS = 25;
/** Dropped connections in a row tried again before the wait gives up (the terminal asks). */
const NETWORK_RETRIES = 3;
const RETRY_PAUSE_MS = 500;

// Resolves at the first accepted press, at the deadline, or when the bot cannot be polled.
export async function waitForPress(input: TelegramWaitInput): Promise<TelegramWaitResult> {
  const { signal } = input.call;
  const seat = new PollSeat(input.inbox, input.now);
  let failures = 0;
  try {
    while (!hasEnded(signal)) {
      for (const press of takePresses(input.inbox, input.requestId)) {
        const found = await judge(input, press);
        if (found) return found;
      }
      if (!seat.take()) {
        await pause(INBOX_PAUSE_MS, signal);
        continue;
      }
      const left = Math.floor((input.endsAt - input.now()) / 1000) - 1;
      const waitSeconds = Math.max(0, Math.min(MAX_POLL_SECONDS, left));
      const updates = await pollOnce(input.call, seat.offset, waitSeconds, failures++).catch(
        (error: unknown) => {
          seat.giveWay(error);
          return undefined;
        },
      );
      if (updates === undefined) continue;
      failures = 0;
      let found: TelegramWaitResult | undefined;
      // Every update is routed before the offset moves past it: none is lost to another request.
      for (const update of updates) {
        seat.passed(update.updateId);
        if (update.press === undefined) continue;
        const result = await judge(input, update.press, found === undefined);
        found ??= result;
      }
      seat.save();
      if (found) return found;
      if (updates.length === 0 && waitSeconds === 0) await pause(INBOX_PAUSE_MS, signal);
    }
    return { none: "timeout" };
  } catch (error) {
    if (hasEnded(signal)) return { none: "timeout" };
    return { none: "error", error: toHookNotifyError(error) };
  } finally {
    seat.leave();
  }
}

// One getUpdates. A dropped connection is tried again (a long poll meets proxies and flaky
// networks) after a pause, a few times; an answer of the Bot API (409, 401, …) is not.
async function pollOnce(
  call: BotCall,
  offset: number | undefined,
  waitSeconds: number,
  failures: number,
): Promise<Awaited<ReturnType<typeof getPresses>>> {
  try {
    return await getPresses(call, offset, waitSeconds);
  } catch (error) {
    const { code } = toHookNotifyError(error);
    if (hasEnded(call.signal) || code !== "SINK_NETWORK" || failures >= NETWORK_RETRIES) {
      throw error;
    }
    await pause(RETRY_PAUSE_MS, call.signal);
    return [];
  }
}

// One press: this request's answer (returned), or routed or refused, and logged.
async function judge(
  input: TelegramWaitInput,
  press: Press,
  mayAnswer = true,
): Promise<TelegramWaitResult | undefined> {
  const found = await classify(input, press, mayAnswer);
  if (typeof found !== "string") return found;
  input.onRejected({ reason: found, message: `callback ${press.id}` });
  return undefined;
}

// Only a press from the configured chat, signed with our key, for this request, before its
// expiry, and the first one counts. A press for another live request goes to its inbox file.
async function classify(
  input: TelegramWaitInput,
  press: Press,
  mayAnswer: boolean,
): Promise<TelegramWaitResult | TelegramRejected["reason"]> {
  if (press.chatId !== input.call.setup.chatId) return "other-chat";
  if (press.reply !== undefined) return classifyReply(input, press, mayAnswer);
  const verdict = readCallback(input.secret, input.call.setup.chatId, press.data);
  if (!verdict.ok) return verdict.reason;
  const expired = verdict.expiresAt * 1000 <= input.now();
  if (verdict.request !== input.requestId && !expired && !isUsed(input.inbox, verdict.request)) {
    deliverPress(input.inbox, verdict.request, press);
    return "other-request";
  }
  if (expired) {
    await tell(
      input.call,
      press,
      "This request has expired: the terminal asked instead.",
      "⌛ Expired: no answer in time, the terminal asked.",
    );
    return "expired";
  }
  if (!mayAnswer || !markUsed(input.inbox, verdict.request)) {
    await tell(input.call, press, "This request was already answered.");
    return "replay";
  }
  return { answer: { decision: verdict.decision }, press, at: input.now() };
}

// A reply to one of our request messages denies it with the reply's text (made inert), once,
// before the request's expiry; a reply to any other message is none of approve's business.
async function classifyReply(
  input: TelegramWaitInput,
  press: Press,
  mayAnswer: boolean,
): Promise<TelegramWaitResult | TelegramRejected["reason"]> {
  const asked = press.replyTo === undefined ? undefined : askedIn(input.inbox, press.replyTo);
  if (asked === undefined) return "other-message";
  const expired = asked.expiresAt * 1000 <= input.now();
  if (asked.request !== input.requestId && !expired && !isUsed(input.inbox, asked.request)) {
    deliverPress(input.inbox, asked.request, press);
    return "other-request";
  }
  if (expired) {
    await tell(input.call, press, "", "⌛ Expired: no answer in time, the terminal asked.");
    return "expired";
  }
  const reason = inertReason(press.reply ?? "");
  if (reason === undefined) return "empty-reply";
  if (!mayAnswer || !markUsed(input.inbox, asked.request)) return "replay";
  return { answer: { decision: "deny", reason }, press, at: input.now() };
}

// Best effort: stops the phone's spinner with `text` (a press; a reply has none), and puts
// `outcome` on top of the message (its buttons go). False when Telegram did not take either call.
export async function tell(
  call: BotCall,
  press: Press,
  text: string,
  outcome?: string,
): Promise<boolean> {
  const answered =
    press.reply !== undefined ||
    (await answerPress(call, press, text).then(
      () => true,
      () => false,
    ));
  if (outcome === undefined || press.messageId === undefined) return answered;
  const after = press.text === undefined ? "" : `\n\n${press.text}`;
  const edited = await editOutcome(call, press.messageId, `${outcome}${after}`).then(
    () => true,
    () => false,
  );
  return answered && edited;
}

// A function, not a property read: the signal changes while we await, which narrowing cannot see.
function hasEnded(signal: AbortSignal): boolean {
  return signal.aborted;
}
