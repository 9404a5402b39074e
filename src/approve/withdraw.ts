// When the desktop banner answered first, the phone is told: its message loses its buttons and
// says where and how the question was answered. Telegram: editMessageText on the sent message
// (without reply_markup, the keyboard goes; ask-telegram.ts makes that Withdraw). ntfy: the request
// was published with its request id as `sequence_id`, and an update published with the same id
// replaces it in place, without actions (ntfy 2.16+; an older server shows it as a second message,
// which still says the question is closed). Best effort: what happened goes in the record.
import { withDeadline } from "../abort.js";
import { APPROVE_PUBLISH_TIMEOUT_MS } from "../core/defaults.js";
import { assertSuccess, postRequest } from "../http/post.js";
import type { Answer } from "./answer.js";
import type { PublishRequest } from "./request.js";
import type { Withdraw } from "./send.js";
import type { NtfySetup } from "./setup.js";

/** What a banner's answer looks like on the phone: "✅ Allowed on the desktop at 12:03:04 UTC.",
 * or for a question's option (its label already inert) "✅ “PostgreSQL” chosen on the desktop …". */
export function answeredOnDesktop(answer: Answer, at: number, chosen?: string): string {
  const time = new Date(at).toISOString().slice(11, 19);
  const outcome =
    chosen !== undefined
      ? `✅ “${chosen}” chosen`
      : answer.decision === "deny"
        ? "⛔ Denied"
        : "✅ Allowed";
  return `${outcome} on the desktop at ${time} UTC.`;
}

// Tells the phone, under its own time limit inside the run's deadline; never throws.
export async function withdrawPhone(
  withdraw: Withdraw | undefined,
  answer: Answer,
  at: number,
  signal: AbortSignal,
  chosen?: string,
): Promise<{ where: "phone"; how: string }> {
  if (withdraw === undefined)
    return { where: "phone", how: "not told: the question was not sent yet" };
  const words = answeredOnDesktop(answer, at, chosen);
  const how = await withDeadline(
    APPROVE_PUBLISH_TIMEOUT_MS,
    (timer) => withdraw(words, timer),
    signal,
  ).catch((error: unknown) => `not told: ${(error as Error).message}`);
  return { where: "phone", how };
}

// The ntfy update that replaces the request: same topic and sequence id, no buttons.
export function ntfyWithdraw(
  setup: NtfySetup & { env: Readonly<Record<string, string | undefined>> },
  requestId: string,
  sent: PublishRequest,
): Withdraw {
  return async (words, signal) => {
    const { title } = JSON.parse(sent.body) as { title?: unknown };
    const body = JSON.stringify({
      topic: setup.requestTopic,
      sequence_id: requestId,
      ...(typeof title === "string" ? { title } : {}),
      message: words,
      priority: 3,
      tags: ["lock"],
    });
    const response = await postRequest(
      { url: sent.url, headers: sent.headers, body },
      { signal, env: setup.env, sinkName: setup.sinkName },
    );
    assertSuccess(response, { sinkName: setup.sinkName, service: "ntfy" });
    return "ntfy message replaced (same sequence id), its buttons gone";
  };
}
