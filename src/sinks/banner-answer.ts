// What a banner's question is and what it can answer, shared by the Linux banner
// (banner-actions.ts) and the macOS and Windows ones (banner-actions-other.ts): Allow and Deny for
// a permission request, or a question's options (an AskUserQuestion, a one-field MCP form), one
// button each, as many as the platform's notifier shows.
import type { Deps } from "../deps.js";
import { inertText } from "../shown-text.js";

/** What the banner's buttons answered (Allow, Deny, or the option at `option`, 0-based), or why
 * there was no banner or no answer. */
export type BannerAnswer =
  { answer: "allow" | "deny"; via?: string } | { option: number; via?: string } | { none: string };

export interface BannerQuestion {
  title: string;
  body: string;
  /** A question's option labels, as the agent sent them (made inert here); none: Allow, Deny. */
  options?: readonly string[] | undefined;
  /** How long the banner stays and is followed. */
  seconds: number;
  deps: Deps;
  /** Aborted when the answer came from elsewhere or the time is up: the banner is withdrawn. */
  signal: AbortSignal;
}

/** One button: its fixed key (the only thing a press reports) and the label shown. */
export interface BannerButton {
  key: string;
  label: string;
}

/** The most buttons each notifier shows: GNOME Shell draws at most three on a banner (other
 * daemons more; three is what fits everywhere), terminal-notifier lists the actions in its menu
 * (a question has at most four), a Windows toast takes up to five. */
export const BANNER_ROOM = { linux: 3, darwin: 4, windows: 5 } as const;

/** The longest label shown on a button, in code points. */
export const MAX_BUTTON_LABEL = 40;

const ALLOW_DENY: readonly BannerButton[] = [
  { key: "hn-allow", label: "Allow" },
  { key: "hn-deny", label: "Deny" },
];

// The banner's buttons, or why it cannot show them all (then the phone alone answers). A label is
// made inert for the medium: one line, no control or hidden characters, at most MAX_BUTTON_LABEL
// code points; `unsafe` characters (terminal-notifier's list separator) become spaces.
export function bannerButtons(
  question: BannerQuestion,
  room: number,
  unsafe?: RegExp,
): readonly BannerButton[] | { none: string } {
  const { options } = question;
  if (options === undefined) return ALLOW_DENY;
  if (options.length > room) {
    return {
      none: `the question has ${options.length} options and this banner shows at most ${room} buttons; the phone answers`,
    };
  }
  const labels = options.map((option) => buttonLabel(option, unsafe));
  if (labels.some((label) => label === "") || new Set(labels).size !== labels.length) {
    return { none: "the options' labels are empty or alike once made safe for the banner" };
  }
  return labels.map((label, index) => ({ key: `hn-option-${index + 1}`, label }));
}

function buttonLabel(text: string, unsafe: RegExp | undefined): string {
  const line = inertText(text, "line").replace(unsafe ?? /(?!)/g, " ");
  const points = Array.from(line.trim());
  return points.length <= MAX_BUTTON_LABEL
    ? points.join("")
    : `${points.slice(0, MAX_BUTTON_LABEL - 1).join("")}…`;
}

// The answer a pressed key gives, only for a key this banner offered.
export function answerOfKey(
  buttons: readonly BannerButton[],
  key: string,
  via?: string,
): BannerAnswer | undefined {
  const index = buttons.findIndex((button) => button.key === key);
  if (index < 0) return undefined;
  const by = via === undefined ? {} : { via };
  if (key === "hn-allow") return { answer: "allow", ...by };
  if (key === "hn-deny") return { answer: "deny", ...by };
  return { option: index, ...by };
}

/** Said when the banner was taken away because the question ended elsewhere. */
export const WITHDRAWN = "the banner was withdrawn (answered elsewhere, or the time was up)";

// Resolves (with nothing) once the signal aborts.
export function abortOf(signal: AbortSignal): Promise<undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(undefined);
    else
      signal.addEventListener(
        "abort",
        () => {
          resolve(undefined);
        },
        { once: true },
      );
  });
}

/** How long closing a banner may take (CloseNotification over D-Bus, terminal-notifier -remove). */
export const CLOSE_MS = 3_000;
