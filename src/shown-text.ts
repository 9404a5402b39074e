// Outside text (event fields, a tool's command, a server's reply, an id) shown to a person must
// show what it is. Control characters move cursors and rewrite terminals; line and paragraph
// separators push the rest of a command below a notification's fold; bidi controls make a
// pipe-to-shell read as a comment; zero-width and tag characters hide text in plain sight. One
// character class, one function: every medium gets the same list, each in the form it needs.

/**
 * Where the text is shown. terminal: each such character becomes a visible `\u202e` escape
 * (newlines and tabs pass). notification: many lines of plain text (desktop, chat, e-mail, the
 * phone): escape sequences dropped whole, line breaks of every kind become "\n", the rest is
 * removed. line: one line for a person to judge (the approval summary): line breaks become " ⏎ ",
 * tabs a space, and each other such character a visible mark (INERT_MARK), never silently gone.
 */
export type Medium = "terminal" | "notification" | "line";

/** Where `line` removed a character: the person sees that something was there. */
export const INERT_MARK = "\uFFFD";

// C0 but tab and newline, DEL, C1 (NEL and the one-byte CSI among them), soft hyphen, Arabic
// letter mark, Mongolian vowel separator, zero-width space/non-joiner/joiner, LRM/RLM, line and
// paragraph separators, bidi embeddings and overrides, word joiner and invisible operators, bidi
// isolates, deprecated format characters, Hangul fillers, the BOM, interlinear annotations, tags.
const HIDDEN_CLASS =
  "\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u115f\\u1160\\u180e" +
  "\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\u3164\\ufeff\\uffa0\\ufff9-\\ufffb" +
  "\\u{e0000}-\\u{e007f}";
const HIDDEN = new RegExp(`[${HIDDEN_CLASS}]`, "gu");
// eslint-disable-next-line no-control-regex -- escape sequences are what this finds
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-_]/g;
const LINE_BREAK = /\r\n?|[\u0085\u2028\u2029]/g;

// The one way outside text is made inert for a person; see Medium for what each form keeps.
export function inertText(text: string, medium: Medium): string {
  switch (medium) {
    case "terminal":
      return text.replace(HIDDEN, escapeUnits);
    case "notification":
      return text.replace(ANSI, "").replace(LINE_BREAK, "\n").replace(HIDDEN, "");
    case "line":
      return text
        .replace(LINE_BREAK, "\n")
        .replace(/\n/g, " ⏎ ")
        .replace(/\t/g, " ")
        .replace(HIDDEN, INERT_MARK);
  }
}

// How many characters `line` shows as INERT_MARK: the count a person is told about.
export function countHidden(text: string): number {
  return text.replace(LINE_BREAK, "\n").match(HIDDEN)?.length ?? 0;
}

// "\u202e"; a character past U+FFFF as its two UTF-16 escapes, so JSON keeps the same data.
function escapeUnits(found: string): string {
  let shown = "";
  for (let i = 0; i < found.length; i++) {
    shown += `\\u${found.charCodeAt(i).toString(16).padStart(4, "0")}`;
  }
  return shown;
}
