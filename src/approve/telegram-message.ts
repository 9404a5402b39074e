// What approve's Telegram message says (ask-telegram.ts sends it): the title and the request's
// lines, the signed buttons in rows, and, once answered, the press's toast and the line put on
// top of the message.
import { optionIndex, type Answer, type Decision } from "./answer.js";
import type { Question } from "./question.js";
import { buttonLabel, offered, requestText, requestTitle, type Offers } from "./request.js";
import type { TelegramAsk } from "./ask-telegram.js";
import { callbackData } from "./telegram-callback.js";

/** The message: its text, its keyboard's rows, what it offers and the decisions it carries. */
export interface TelegramMessage {
  text: string;
  rows: { text: string; callback_data: string }[][];
  offers: Offers;
  shown: Decision[];
}

// The message for `ask`, its buttons signed for this chat, request and expiry.
export function telegramMessage(
  ask: Pick<
    TelegramAsk,
    "sample" | "request" | "agent" | "question" | "grant" | "summary" | "setup" | "endsAt"
  >,
  secret: Buffer,
  requestId: string,
  seconds: number,
): TelegramMessage {
  const expiresAt = Math.floor(ask.endsAt / 1000);
  const kind = ask.sample ? ("sample" as const) : ("agent" as const);
  const origin = { ...ask.request, agent: ask.agent, kind };
  // A reply denies a permission request with a reason, or answers a form's text field.
  const offers: Offers =
    ask.question === undefined
      ? { grant: ask.grant, reply: true }
      : { question: ask.question, reply: ask.request.form?.text !== undefined };
  const text = `${requestTitle(ask.summary, origin, offers)}\n${requestText(ask.summary, origin, seconds, requestId, offers)}`;
  const button = (decision: Decision) => ({
    text: buttonLabel(decision, offers),
    callback_data: callbackData(secret, ask.setup.chatId, requestId, expiresAt, decision),
  });
  // Allow and Deny side by side; Allow for this session (a longer label) and each of a
  // question's options on a row of its own.
  const shown = offered(offers);
  const rows = (
    ask.question === undefined
      ? [shown.filter((d) => d !== "allow-session"), shown.filter((d) => d === "allow-session")]
      : shown.map((d) => [d])
  )
    .filter((row) => row.length > 0)
    .map((row) => row.map(button));
  return { text, rows, offers, shown };
}

// What the phone is told: the press's toast, and the line put on top of the message.
export function outcomeText(answer: Answer, question?: Question): [string, string] {
  const index = optionIndex(answer.decision);
  if (index !== undefined) {
    const label = buttonLabel(answer.decision, { question });
    return [`Answered: ${label}. The agent goes on.`, `✅ Answered: ${label}`];
  }
  switch (answer.decision) {
    case "allow":
      return ["Allowed: the agent goes on.", "✅ Allowed"];
    case "allow-session":
      return ["Allowed for this session: the agent goes on.", "✅ Allowed for this session"];
    case "deny":
      return answer.reason === undefined
        ? ["Denied: the agent was told not to.", "⛔ Denied"]
        : ["Denied: the agent reads your reason.", `⛔ Denied with your reason`];
    case "option-1":
    case "option-2":
    case "option-3":
    case "option-4":
      return ["Answered.", "✅ Answered"]; // told above, with the option's label
  }
}
