// What the terminal sink writes to the agent's terminal: which terminal it is (from the variables
// the agent inherited from it), which notification sequence that terminal is known to show, and
// the bytes, with the event's text made inert first. Pure: no file, no program.
//
// Known to show a banner (each from the terminal's own documentation or source):
//   iTerm2     OSC 9 ; text BEL                               (TERM_PROGRAM=iTerm.app, LC_TERMINAL=iTerm2)
//   WezTerm    OSC 777 ; notify ; title ; body BEL            (TERM_PROGRAM=WezTerm, WEZTERM_PANE)
//   Ghostty    OSC 777 ; notify ; title ; body BEL            (TERM_PROGRAM=ghostty, TERM=xterm-ghostty)
//   foot       OSC 777 ; notify ; title ; body BEL            (TERM=foot*)
//   VTE        OSC 777 ; notify ; title ; body BEL            (VTE_VERSION >= 4600: distribution
//              builds with the notify patch show it, upstream VTE drops it without a trace)
//   kitty      OSC 99 ; i=id:d=0 ; title ST, OSC 99 ; i=id:d=1:p=body ; body ST   (TERM=xterm-kitty, KITTY_WINDOW_ID)
// Windows Terminal (WT_SESSION) reads OSC 9 ; 4 and OSC 9 ; 9 as progress and folder (ConEmu's
// family) and shows no banner for either sequence: it gets the bell and the title only, as does
// any terminal not listed. Inside tmux a banner goes in tmux's passthrough (DCS tmux ; … ST with
// every ESC doubled), and only when tmux's allow-passthrough is on (the sink asks tmux); the bell
// and the title go to tmux itself, which shows them in its own way (bell-action, set-titles).
import { inertText } from "../shown-text.js";
import { QUIET_LEVELS, type Notification } from "../core/notification.js";

/** How a terminal shows a banner, if it does. */
export type Banner = "osc9" | "osc777" | "osc99";

/** The terminal the agent runs in, as far as its variables say. */
export interface TerminalKind {
  /** A name for logs and doctor: "iTerm2", "kitty", … or the TERM value. */
  name: string;
  banner?: Banner | undefined;
  /** TERM names a terminal that reads OSC 0 (xterm and its kin). */
  title: boolean;
  /** The agent runs inside tmux (TMUX is set): banners need tmux's passthrough. */
  tmux: boolean;
}

/** What to send; the sink's options. */
export interface TerminalParts {
  bell: boolean;
  banner: boolean;
  title: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

const ESC = "\u001b";
const BEL = "\u0007";
const ST = `${ESC}\\`;
const MAX_TITLE = 80;
const MAX_BODY = 240;
const XTERM_LIKE = /^(xterm|screen|tmux|rxvt|foot|alacritty|wezterm|vte|konsole|st-|contour)/;

// The terminal from its variables. Inside tmux TERM and TERM_PROGRAM name tmux, so the outer
// terminal is known from the variables that outlive it there (LC_TERMINAL, KITTY_WINDOW_ID, …).
export function detectTerminal(env: Env): TerminalKind {
  const term = env.TERM ?? "";
  const program = env.TERM_PROGRAM ?? "";
  const tmux = !!env.TMUX;
  const title = XTERM_LIKE.test(term);
  const kind = (name: string, banner?: Banner): TerminalKind => ({
    name,
    banner,
    title: title || banner !== undefined,
    tmux,
  });
  if (program === "iTerm.app" || env.LC_TERMINAL === "iTerm2") return kind("iTerm2", "osc9");
  if (program === "WezTerm" || env.WEZTERM_PANE) return kind("WezTerm", "osc777");
  if (program === "ghostty" || term === "xterm-ghostty") return kind("Ghostty", "osc777");
  if (term === "xterm-kitty" || env.KITTY_WINDOW_ID) return kind("kitty", "osc99");
  if (/^foot/.test(term)) return kind("foot", "osc777");
  if (env.WT_SESSION) return kind("Windows Terminal");
  if (Number(env.VTE_VERSION) >= 4600) return kind("VTE", "osc777");
  return kind(tmux ? "tmux" : term || "unknown");
}

// Event text as one inert line for a terminal: escape sequences, C0 and C1 controls, bidi
// controls and separators removed (shown-text.ts), line breaks and tabs made spaces, the field
// separator ";" made ",", and cut to `max` characters.
export function inertField(text: string, max: number): string {
  const flat = inertText(text, "notification")
    .replace(/[\n\t]/g, " ")
    .replace(/;/g, ",")
    .replace(/ {2,}/g, " ")
    .trim();
  // Cut between whole characters (an emoji or a letter with its marks stays whole).
  const graphemes = Array.from(new Intl.Segmenter().segment(flat), (part) => part.segment);
  return graphemes.length > max ? `${graphemes.slice(0, max - 1).join("")}…` : flat;
}

// The banner sequence a terminal shows, built from inert fields only.
export function bannerSequence(banner: Banner, notification: Notification): string {
  const title = inertField(notification.title, MAX_TITLE);
  const body = inertField(notification.body, MAX_BODY);
  switch (banner) {
    case "osc9":
      return `${ESC}]9;${body ? `${title}: ${body}` : title}${BEL}`;
    case "osc777":
      return `${ESC}]777;notify;${title};${body}${BEL}`;
    case "osc99": {
      // kitty's id: letters, digits and a few marks only; ours is a ULID.
      const id = notification.id.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32) || "hook-notify";
      // d=0: more of this notification follows (the body); d=1: it is complete, show it.
      if (!body) return `${ESC}]99;i=${id}:d=1;${title}${ST}`;
      return `${ESC}]99;i=${id}:d=0;${title}${ST}${ESC}]99;i=${id}:d=1:p=body;${body}${ST}`;
    }
  }
}

// tmux passes a sequence on to the terminal outside it in DCS tmux; … ST, every ESC doubled.
export function tmuxPassthrough(sequence: string): string {
  return `${ESC}Ptmux;${sequence.replaceAll(ESC, ESC + ESC)}${ST}`;
}

/** The bytes to write and what they stand for (for the log and --dry-run). */
export interface TerminalWrite {
  text: string;
  sent: string[];
}

// Everything to write for one notification: the banner the terminal is known to show (through
// tmux's passthrough when inside tmux and it is allowed), the tab title, the bell.
export function terminalWrite(
  notification: Notification,
  parts: TerminalParts,
  terminal: TerminalKind,
  passthrough: boolean,
): TerminalWrite {
  let text = "";
  const sent: string[] = [];
  if (parts.banner && terminal.banner && (!terminal.tmux || passthrough)) {
    const sequence = bannerSequence(terminal.banner, notification);
    text += terminal.tmux ? tmuxPassthrough(sequence) : sequence;
    sent.push(terminal.tmux ? `${terminal.banner} (tmux passthrough)` : terminal.banner);
  }
  if (parts.title && terminal.title) {
    text += `${ESC}]0;${inertField(notification.title, MAX_TITLE)}${BEL}`;
    sent.push("title");
  }
  // The bell is an attention sound: a notice or a usage limit does not ring it.
  if (parts.bell && !QUIET_LEVELS.includes(notification.level)) {
    text += BEL;
    sent.push("bell");
  }
  return { text, sent };
}
