// One permission question through a Telegram bot: sendMessage with inline Allow / Deny buttons
// (signed, single-use callback data: telegram-callback.ts), the wait for the press by getUpdates
// long polling (telegram-wait.ts), then answerCallbackQuery and editMessageText with the outcome.
import { stateDir } from "../config/paths.js";
import type { Deps } from "../deps.js";
import type { PermissionInput } from "./read-request.js";
import type { ApproveRecord } from "./record.js";
import { requestText, requestTitle } from "./request.js";
import { sendQuestion, type PhoneResult } from "./send.js";
import type { TelegramSetup } from "./setup.js";
import type { RequestSummary } from "./summary.js";
import { callBot, type BotCall } from "./telegram-bot.js";
import { callbackData, newTelegramRequestId } from "./telegram-callback.js";
import { openInbox } from "./telegram-inbox.js";
import { tell, waitForPress } from "./telegram-wait.js";

/** What asking through Telegram needs from the run. */
export interface TelegramAsk {
  setup: TelegramSetup;
  deps: Deps;
  request: PermissionInput;
  summary: RequestSummary;
  sample: boolean;
  /** The client asking, for the title ("Codex asks to use Bash"). */
  agent: string;
  record: ApproveRecord;
  /** The run's one deadline, and when it strikes (epoch ms). */
  signal: AbortSignal;
  endsAt: number;
}

// Sends the question, waits for the one accepted press, tells the phone what it did.
export async function askTelegram(
  ask: TelegramAsk,
  secret: Buffer,
  onSent: (seconds: number) => void,
): Promise<PhoneResult> {
  const { deps, setup, signal, record } = ask;
  const requestId = newTelegramRequestId();
  record.id = requestId;
  record.approval.request = requestId;
  // The phone is promised only the time really left; a press after the deadline is refused.
  const seconds = Math.max(1, Math.floor((ask.endsAt - deps.now()) / 1000));
  const expiresAt = Math.floor(ask.endsAt / 1000);
  const kind = ask.sample ? ("sample" as const) : ("agent" as const);
  const origin = { ...ask.request, agent: ask.agent, kind };
  const text = `${requestTitle(ask.summary, origin)}\n${requestText(ask.summary, origin, seconds, requestId)}`;
  const button = (label: string, decision: "allow" | "deny") => ({
    text: label,
    callback_data: callbackData(secret, setup.chatId, requestId, expiresAt, decision),
  });
  const call: BotCall = { setup, signal, env: deps.env };
  const inbox = openInbox(stateDir(deps), setup.botToken);
  const { sentAt } = await sendQuestion(
    { setup, target: `${new URL(setup.api).origin} sendMessage`, record },
    deps,
    signal,
    (timer) =>
      callBot({ ...call, signal: timer }, "sendMessage", {
        chat_id: setup.chatId,
        ...(setup.threadId === undefined ? {} : { message_thread_id: setup.threadId }),
        // Plain text (no parse_mode): the summary is already inert and nothing in it is markup.
        text,
        link_preview_options: { is_disabled: true },
        reply_markup: { inline_keyboard: [[button("Allow", "allow"), button("Deny", "deny")]] },
      }),
  );
  onSent(seconds);
  const result = await waitForPress({
    call,
    inbox,
    secret,
    requestId,
    endsAt: ask.endsAt,
    now: deps.now,
    onRejected: (rejected) => record.approval.rejected.push(rejected),
  });
  if (!("answer" in result)) return { result, sentAt };
  const allowed = result.answer === "allow";
  const at = new Date(result.at).toISOString().slice(11, 19);
  const told = await tell(
    call,
    { ...result.press, text: result.press.text ?? text },
    allowed ? "Allowed: the agent goes on." : "Denied: the agent was told not to.",
    `${allowed ? "✅ Allowed" : "⛔ Denied"} from this chat at ${at} UTC.`,
  );
  if (!told) record.approval.told = false;
  return { result: { answer: result.answer, at: result.at }, sentAt };
}
