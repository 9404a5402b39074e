// What a typed reply may put into the agent's terminal: one line of printable text, bounded.
// Pure. Anything that a terminal or the agent's prompt would read as a key (control characters,
// escape sequences, line breaks, bidi and invisible characters) refuses the reply: it is never
// quietly dropped, so what the phone confirms is exactly what is typed.
import { once } from "../once.js";

/** The longest reply typed into a pane (characters). */
export const REPLY_MAX_CHARS = 500;

/** The text to type, or why it is refused (a sentence for the phone). */
export type ReplyText = { ok: true; text: string } | { ok: false; reason: string };

// C0 and C1 controls (ESC, CR, LF, TAB, DEL …), line and paragraph separators, bidi controls,
// zero-width and other invisible format characters, tags, and lone surrogates. Built on first
// use: a regular expression with the u flag costs V8 1-2 M instructions to make.
const refused = once(() => /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\u2028\u2029]/u);

// Trims the ends; refuses empty text, more than REPLY_MAX_CHARS, and any refused character.
export function inertReply(raw: unknown): ReplyText {
  if (typeof raw !== "string") return { ok: false, reason: "only a text reply can be typed" };
  const text = raw.trim();
  if (text === "") return { ok: false, reason: "the reply is empty" };
  if (Array.from(text).length > REPLY_MAX_CHARS) {
    return { ok: false, reason: `the reply is longer than ${REPLY_MAX_CHARS} characters` };
  }
  if (refused().test(text)) {
    return {
      ok: false,
      reason:
        "the reply holds a line break or an invisible or control character; send one plain line",
    };
  }
  return { ok: true, text };
}
