// One permission question through a Telegram bot: sendMessage with inline Allow / Deny (and Allow
// for this session) buttons (signed, single-use callback data: telegram-callback.ts), the wait for
// the press, or a reply that denies with a reason, by getUpdates long polling (telegram-wait.ts),
// then answerCallbackQuery and editMessageText with the outcome. What the message says (text,
// buttons, outcome lines): telegram-message.ts.
import { stateDir } from "../config/paths.js";
import type { Deps } from "../deps.js";
import { fitsText } from "./elicitation.js";
import type { Question } from "./question.js";
import type { PermissionInput } from "./read-request.js";
import type { ApproveRecord } from "./record.js";
import { sendQuestion, type PhoneResult, type Withdraw } from "./send.js";
import type { TelegramSetup } from "./setup.js";
import type { SessionGrant } from "./session-grant.js";
import type { RequestSummary } from "./summary.js";
import { callBot, editOutcome, type BotCall } from "./telegram-bot.js";
import { newTelegramRequestId } from "./telegram-callback.js";
import { outcomeText, telegramMessage } from "./telegram-message.js";
import { markUsed, noteMessage, openInbox } from "./telegram-inbox.js";
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
  /** What "Allow for this session" grants, when the client takes it and the request offers one. */
  grant?: SessionGrant | undefined;
  /** An AskUserQuestion: one button per option, and no reply to deny with. */
  question?: Question | undefined;
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
  const form = ask.request.form;
  const { text, rows, offers, shown } = telegramMessage(ask, secret, requestId, seconds);
  const call: BotCall = { setup, signal, env: deps.env };
  const inbox = openInbox(stateDir(deps), setup.botToken);
  const { sentAt, sent } = await sendQuestion(
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
        ...(rows.length === 0 ? {} : { reply_markup: { inline_keyboard: rows } }),
      }),
  );
  // A reply names only the message it answers: note whose request that is, before any can come.
  // A question takes no reply: its message is not noted, so a reply to it answers nothing.
  const messageId = (sent as { message_id?: unknown } | undefined)?.message_id;
  if (typeof messageId === "number" && offers.reply)
    noteMessage(inbox, messageId, { request: requestId, expiresAt });
  onSent(seconds);
  // The banner answered first: this question is used (a late press is told so) and the message
  // says where it was answered, without its buttons.
  const withdraw: Withdraw = async (words, timer) => {
    markUsed(inbox, requestId);
    if (typeof messageId !== "number") return "not told: Telegram gave no message id";
    await editOutcome({ ...call, signal: timer }, messageId, `${words}\n\n${text}`);
    return "Telegram message edited, its buttons gone";
  };
  const result = await waitForPress({
    call,
    inbox,
    secret,
    requestId,
    endsAt: ask.endsAt,
    now: deps.now,
    onRejected: (rejected) => record.approval.rejected.push(rejected),
  });
  if (!("answer" in result)) return { result, sentAt, withdraw };
  const typed = offers.question !== undefined ? result.answer.reason : undefined;
  if (typed !== undefined && form !== undefined && !fitsText(form, typed)) {
    await tell(
      call,
      { ...result.press, text: result.press.text ?? text },
      "",
      "⚠ Not sent: the reply does not fit the field's length; the form shows at the terminal.",
    );
    return { result: { none: "reply-does-not-fit" }, sentAt };
  }
  if (typed === undefined && !shown.includes(result.answer.decision)) {
    // Only a button this message carried answers it (a signed Allow cannot answer a question).
    return { result: { none: "not-offered" }, sentAt, withdraw };
  }
  const at = new Date(result.at).toISOString().slice(11, 19);
  const [spinner, outcome] =
    typed === undefined
      ? outcomeText(result.answer, offers.question)
      : ["", "✅ Answered with your reply"];
  const told = await tell(
    call,
    { ...result.press, text: result.press.text ?? text },
    spinner,
    `${outcome} from this chat at ${at} UTC.`,
  );
  if (!told) record.approval.told = false;
  const by = { via: "telegram" as const, user: result.press.fromId };
  return { result: { answer: result.answer, at: result.at, by }, sentAt };
}
