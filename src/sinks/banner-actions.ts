// A permission request as a desktop banner with Allow and Deny buttons (or a question with one
// button per option), for the person at the machine. Linux and the BSDs: notify-send shows it with
// actions whose keys are fixed literals ("hn-allow", "hn-deny", "hn-option-<n>"; the labels, made
// inert, are the only text from the event, in the argument array); the bus's one listener
// (banner-listener.ts) follows it and reports the key of the button pressed, as it reports a click
// that brings the terminal back. Only a key this banner offered, from the notification daemon, for
// this banner's id, counts (a press before the id is followed is kept by the listener, not lost).
// macOS and Windows: banner-actions-other.ts.
// approve (run-approve.ts) takes the first answer, the banner's or the phone's; when the phone
// answers first (or the time is up) the caller aborts `signal` and the banner is closed
// (CloseNotification over D-Bus).
import { withDeadline } from "../abort.js";
import type { Deps } from "../deps.js";
import {
  abortOf,
  answerOfKey,
  BANNER_ROOM,
  bannerButtons,
  CLOSE_MS,
  WITHDRAWN,
  type BannerAnswer,
  type BannerQuestion,
} from "./banner-answer.js";
import { askOnMac, askOnWindows } from "./banner-actions-other.js";
import { holdListener } from "./banner-listener.js";
import { showWithAction } from "./desktop-click.js";
import { hasSessionBus } from "./desktop.js";
import { findProgram } from "./find-program.js";
import { escapeBody } from "./notify-send-text.js";
import { isWsl, settleMs } from "./platform.js";
import { runProgram } from "./run-program.js";

export type { BannerAnswer, BannerQuestion } from "./banner-answer.js";

// Shows the question and resolves with the button pressed; never throws.
export async function askOnBanner(question: BannerQuestion): Promise<BannerAnswer> {
  const { platform } = question.deps;
  if (platform === "darwin") return askOnMac(question);
  if (platform === "win32" || isWsl(question.deps)) return askOnWindows(question);
  return askOnLinux(question);
}

async function askOnLinux(question: BannerQuestion): Promise<BannerAnswer> {
  const { deps, seconds, signal } = question;
  const { env, platform } = deps;
  const path = findProgram("notify-send", env, platform);
  const stdbuf = findProgram("stdbuf", env, platform);
  if (!path || !stdbuf || !hasSessionBus(env)) {
    return { none: "no notify-send, stdbuf or desktop session here" };
  }
  const buttons = bannerButtons(question, BANNER_ROOM.linux);
  if ("none" in buttons) return buttons;
  const hold = await holdListener(deps);
  if ("why" in hold) return { none: hold.why };
  try {
    const args = [
      "--print-id",
      "--app-name=hook-notify",
      "--urgency=critical",
      `--expire-time=${String(Math.round(seconds * 1000))}`,
      ...buttons.map((button) => `--action=${button.key}=${button.label}`),
      "--",
      question.title,
      escapeBody(question.body),
    ];
    const ctx = { deps, signal, sinkName: "banner", wait: true };
    const shown = await showWithAction(
      [stdbuf, "-oL", path, ...args],
      ctx,
      settleMs("desktop", env),
    );
    if (shown.noAction) {
      hold.release();
      return { none: shown.noAction };
    }
    const ended = hold.follow(shown.id, { seconds });
    const end = await Promise.race([ended, abortOf(signal)]);
    if (end === undefined) {
      const closed = await closeNotification(shown.id, deps);
      return { none: `${WITHDRAWN}: ${closed}` };
    }
    const answer = end.ended === "clicked" ? answerOfKey(buttons, end.reason) : undefined;
    if (answer !== undefined) return answer;
    return { none: `the banner was ${end.ended}: ${end.reason}` };
  } catch (error) {
    hold.release();
    return { none: (error as Error).message };
  }
}

// CloseNotification(id) over D-Bus with dbus-send (argument arrays; the id is digits only); the
// daemon then sends NotificationClosed, which ends the listener's following. What happened, in
// words for the log.
async function closeNotification(id: string, deps: Deps): Promise<string> {
  const dbusSend = findProgram("dbus-send", deps.env, deps.platform);
  if (!dbusSend) return "dbus-send not found, the banner stays until it expires";
  const args = [
    "--session",
    "--type=method_call",
    "--dest=org.freedesktop.Notifications",
    "/org/freedesktop/Notifications",
    "org.freedesktop.Notifications.CloseNotification",
    `uint32:${id}`,
  ];
  try {
    await withDeadline(CLOSE_MS, (timer) =>
      runProgram(dbusSend, args, {
        env: deps.env,
        signal: timer,
        wait: true,
        sinkName: "banner",
        settleMs: 0,
      }),
    );
    return `banner ${id} closed`;
  } catch (error) {
    return `banner ${id} not closed: ${(error as Error).message}`;
  }
}
