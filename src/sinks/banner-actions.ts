// Linux and the BSDs: a permission request as a desktop banner with Allow and Deny buttons, for
// the person at the machine. notify-send shows it with two actions whose keys are fixed literals
// ("hn-allow", "hn-deny"); the bus's one listener (banner-listener.ts) follows it and reports the
// key of the button pressed, as it reports a click that brings the terminal back. Only those two
// keys, from the notification daemon, for this banner's id, before it is no longer followed,
// count: approve (run-approve.ts) takes the first answer, the banner's or the phone's.
import type { Deps } from "../deps.js";
import { holdListener } from "./banner-listener.js";
import { showWithAction } from "./desktop-click.js";
import { hasSessionBus } from "./desktop.js";
import { findProgram } from "./find-program.js";
import { escapeBody } from "./notify-send-text.js";
import { settleMs } from "./platform.js";

/** What the banner's buttons answered, or why there was no banner or no answer. */
export type BannerAnswer = { answer: "allow" | "deny" } | { none: string };

export interface BannerQuestion {
  title: string;
  body: string;
  /** How long the banner stays and is followed. */
  seconds: number;
  deps: Deps;
  signal: AbortSignal;
}

// Shows the question and resolves with the button pressed; never throws.
export async function askOnBanner(question: BannerQuestion): Promise<BannerAnswer> {
  const { deps, seconds } = question;
  const { env, platform } = deps;
  if (platform === "darwin" || platform === "win32") return { none: "not on this platform" };
  const path = findProgram("notify-send", env, platform);
  const stdbuf = findProgram("stdbuf", env, platform);
  if (!path || !stdbuf || !hasSessionBus(env)) {
    return { none: "no notify-send, stdbuf or desktop session here" };
  }
  const hold = await holdListener(deps);
  if ("why" in hold) return { none: hold.why };
  try {
    const args = [
      "--print-id",
      "--app-name=hook-notify",
      "--urgency=critical",
      `--expire-time=${String(Math.round(seconds * 1000))}`,
      "--action=hn-allow=Allow",
      "--action=hn-deny=Deny",
      "--",
      question.title,
      escapeBody(question.body),
    ];
    const ctx = { deps, signal: question.signal, sinkName: "banner", wait: true };
    const shown = await showWithAction(
      [stdbuf, "-oL", path, ...args],
      ctx,
      settleMs("desktop", env),
    );
    if (shown.noAction) {
      hold.release();
      return { none: shown.noAction };
    }
    const end = await hold.follow(shown.id, { seconds });
    if (end.ended === "clicked" && end.reason === "hn-allow") return { answer: "allow" };
    if (end.ended === "clicked" && end.reason === "hn-deny") return { answer: "deny" };
    return { none: `the banner was ${end.ended}: ${end.reason}` };
  } catch (error) {
    hold.release();
    return { none: (error as Error).message };
  }
}
