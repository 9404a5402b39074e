// A permission request as a desktop banner with Allow and Deny buttons (or a question with one
// button per option), for the person at the machine. Linux and the BSDs: a Notify over D-Bus
// (desktop-bus.ts) with actions whose keys are fixed literals ("hn-allow", "hn-deny",
// "hn-option-<n>"; the labels, made inert, are the only text from the event); the bus's one listener
// (banner-listener.ts) follows it and reports the key of the button pressed, as it reports a click
// that brings the terminal back. Only a key this banner offered, from the notification daemon, for
// this banner's id, counts (a press before the id is followed is kept by the listener, not lost).
// macOS and Windows: banner-actions-other.ts.
// approve (run-approve.ts) takes the first answer, the banner's or the phone's; when the phone
// answers first (or the time is up) the caller aborts `signal` and the banner is closed
// (CloseNotification on the same connection).
import { withDeadline } from "../abort.js";
import type { NotificationBus } from "../dbus/notifications.js";
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
import { hasActions, inertBody, withNotificationBus } from "./desktop-bus.js";
import { isWsl } from "./platform.js";

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
  const buttons = bannerButtons(question, BANNER_ROOM.linux);
  if ("none" in buttons) return buttons;
  const hold = await holdListener(deps);
  if ("why" in hold) return { none: hold.why };
  try {
    return await withNotificationBus(deps.env, { signal, place: "banner" }, async (bus) => {
      if (!(await hasActions(bus))) {
        hold.release();
        return { none: "the notification daemon does not support actions" };
      }
      const id = await bus.notify(
        {
          appName: "hook-notify",
          icon: "",
          summary: question.title,
          body: await inertBody(bus, question.body),
          actions: buttons.flatMap((button) => [button.key, button.label]),
          hints: { urgency: 2 },
          expireTimeoutMs: Math.round(seconds * 1000),
        },
        signal,
      );
      const ended = hold.follow(String(id), { seconds });
      const end = await Promise.race([ended, abortOf(signal)]);
      if (end === undefined) return { none: `${WITHDRAWN}: ${await closeBanner(bus, id)}` };
      const answer = end.ended === "clicked" ? answerOfKey(buttons, end.reason) : undefined;
      if (answer !== undefined) return answer;
      return { none: `the banner was ${end.ended}: ${end.reason}` };
    });
  } catch (error) {
    hold.release();
    return { none: (error as Error).message };
  }
}

// CloseNotification(id) on the same connection; the daemon then sends NotificationClosed, which
// ends the listener's following. What happened, in words for the log.
async function closeBanner(bus: NotificationBus, id: number): Promise<string> {
  try {
    await withDeadline(CLOSE_MS, (timer) => bus.close(id, timer));
    return `banner ${String(id)} closed`;
  } catch (error) {
    return `banner ${String(id)} not closed: ${(error as Error).message}`;
  }
}
