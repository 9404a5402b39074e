// The answer a phone button posts, and its check. The body is fixed when the request is sent and
// carries an HMAC over (request id, decision) keyed with a secret only this machine holds, so
// nobody can make up an answer, and an answer to one request is worthless for any other.
import { checkFields, signFields } from "../machine-key.js";

/** Every button a request can carry, in the order shown: the one list the phone's channels (and a
 * desktop banner's actions) offer. "allow-session" is offered only with a session grant
 * (session-grant.ts); a deny with a typed reason arrives as "deny" plus its text. A question
 * (question.ts) offers "option-1" to "option-<n>" instead, one per option it has. */
/** The buttons of a question's options, in order (one per option). */
export const OPTIONS = ["option-1", "option-2", "option-3", "option-4"] as const;
export const DECISIONS = ["allow", "allow-session", "deny", ...OPTIONS] as const;
export type Decision = (typeof DECISIONS)[number];
/** The answers to a permission request: Allow, Allow for this session, Deny. */
export type PermissionDecision = Exclude<Decision, (typeof OPTIONS)[number]>;

/** A person's verified answer: the button, and for a deny the reason they typed, if any. */
export interface Answer {
  decision: Decision;
  /** Already inert and bounded (reason.ts). */
  reason?: string | undefined;
}

// The option a decision chooses (0-based), or undefined for Allow, Allow for this session, Deny.
export function optionIndex(decision: Decision): number | undefined {
  const index = (OPTIONS as readonly string[]).indexOf(decision);
  return index < 0 ? undefined : index;
}

// True for a decision this version knows.
export function isDecision(value: unknown): value is Decision {
  return (DECISIONS as readonly unknown[]).includes(value);
}

/** What a verified answer says, or why a message on the reply topic was not accepted. */
export type AnswerVerdict =
  | { ok: true; decision: Decision }
  | { ok: false; reason: "malformed" | "forged" | "other-request" };

const DOMAIN = "hook-notify approve v1";
const MAX_BODY = 1024;

// The MAC over one (request id, decision) pair, base64url.
function mac(secret: Buffer, requestId: string, decision: Decision): string {
  return signFields(secret, DOMAIN, [requestId, decision]);
}

// The exact body the Allow or Deny button posts to the reply topic.
export function answerBody(secret: Buffer, requestId: string, decision: Decision): string {
  return JSON.stringify({
    hn: 1,
    request: requestId,
    decision,
    mac: mac(secret, requestId, decision),
  });
}

// Accepts only a well-formed answer whose MAC checks and whose request id is ours.
export function verifyAnswer(secret: Buffer, requestId: string, text: string): AnswerVerdict {
  const parsed = parseAnswer(text);
  if (parsed === undefined) return { ok: false, reason: "malformed" };
  if (!checkFields(secret, DOMAIN, [parsed.request, parsed.decision], parsed.mac)) {
    return { ok: false, reason: "forged" };
  }
  if (parsed.request !== requestId) return { ok: false, reason: "other-request" };
  return { ok: true, decision: parsed.decision };
}

function parseAnswer(
  text: string,
): { request: string; decision: Decision; mac: string } | undefined {
  if (text.length > MAX_BODY) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== "object") return undefined;
  const { hn, request, decision, mac: given } = value as Record<string, unknown>;
  if (hn !== 1 || typeof request !== "string" || typeof given !== "string") return undefined;
  if (!isDecision(decision)) return undefined;
  return { request, decision, mac: given };
}
