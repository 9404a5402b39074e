// The callback_data of the Allow and Deny buttons on a Telegram permission message. Telegram
// allows 1-64 bytes (InlineKeyboardButton), so the data is short and self-checking:
//   hn1.<a|s|d|1-4>.<request id: 16 characters>.<expiry: Unix seconds, base 36>.<MAC: 20 characters>
// (48 bytes). The MAC is HMAC-SHA256 with the approve key over the chat, the request, the expiry
// and the decision, cut to 120 bits: nobody without the key can make a button for a request, a
// press is bound to one request of one chat, and its expiry cannot be pushed back.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Decision } from "./answer.js";

/** What a checked callback says, or why it is none of ours. */
export type CallbackVerdict =
  | { ok: true; request: string; decision: Decision; expiresAt: number }
  | { ok: false; reason: "malformed" | "forged" };

const DOMAIN = "hook-notify approve telegram v1";
const PREFIX = "hn1";
const MAC_BYTES = 15;
/** Telegram's limit on callback_data. */
export const CALLBACK_DATA_MAX_BYTES = 64;
/** One character per decision in the data: a(llow), s(ession), d(eny), a question's option 1-4. */
const CODES: Record<Decision, string> = {
  allow: "a",
  "allow-session": "s",
  deny: "d",
  "option-1": "1",
  "option-2": "2",
  "option-3": "3",
  "option-4": "4",
};
const SHAPE = /^hn1\.([asd1-4])\.([A-Za-z0-9_-]{16})\.([0-9a-z]{1,8})\.([A-Za-z0-9_-]{20})$/;

// A fresh request id: 12 random bytes, 16 base64url characters.
export function newTelegramRequestId(): string {
  return randomBytes(12).toString("base64url");
}

function mac(
  secret: Buffer,
  chatId: string,
  request: string,
  expiresAt: number,
  decision: Decision,
): string {
  return createHmac("sha256", secret)
    .update(`${DOMAIN}\n${chatId}\n${request}\n${expiresAt}\n${decision}`)
    .digest()
    .subarray(0, MAC_BYTES)
    .toString("base64url");
}

// The callback_data of one button. `expiresAt` is in Unix seconds.
export function callbackData(
  secret: Buffer,
  chatId: string,
  request: string,
  expiresAt: number,
  decision: Decision,
): string {
  const code = CODES[decision];
  const signed = mac(secret, chatId, request, expiresAt, decision);
  return `${PREFIX}.${code}.${request}.${expiresAt.toString(36)}.${signed}`;
}

// Reads and checks the data of a press that came from `chatId`. Pure: whether it is this run's
// request, still valid or already used is for the caller to decide.
export function readCallback(secret: Buffer, chatId: string, data: unknown): CallbackVerdict {
  if (typeof data !== "string" || Buffer.byteLength(data) > CALLBACK_DATA_MAX_BYTES) {
    return { ok: false, reason: "malformed" };
  }
  const match = SHAPE.exec(data);
  if (!match) return { ok: false, reason: "malformed" };
  const [, code, request, expiry, given] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
  ];
  const decision = (Object.keys(CODES) as Decision[]).find((d) => CODES[d] === code) ?? "deny";
  const expiresAt = parseInt(expiry, 36);
  const expected = Buffer.from(mac(secret, chatId, request, expiresAt, decision));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    return { ok: false, reason: "forged" };
  }
  return { ok: true, request, decision, expiresAt };
}
