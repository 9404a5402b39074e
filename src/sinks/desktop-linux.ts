// Linux and the BSDs: the banner through notify-send, and, in the background worker, its story
// for the log: shown (the daemon's id), then clicked (what the click brought back), closed (the
// daemon's reason: expired, dismissed, closed by a program), or why that could not be learnt.
// The bus's one listener (banner-listener.ts) learns both the click and the close.
import type { Notification } from "../core/notification.js";
import type { ReceiptEvent } from "../core/receipt.js";
import { HookNotifyError, toHookNotifyError } from "../errors.js";
import { focusClicked } from "../focus/focus-linux.js";
import { describePlace, findPlace, linuxFocusGap, type FocusPlace } from "../focus/place.js";
import { holdListener, type ListenerHold } from "./banner-listener.js";
import { showWithAction } from "./desktop-click.js";
import { hasSessionBus, notifySendArgs, type DesktopOptions } from "./desktop.js";
import { findProgram } from "./find-program.js";
import { settleMs } from "./platform.js";
import { runProgram } from "./run-program.js";
import type { BannerEnd, SendContext, SendReport } from "./sink.js";

const ID = /^\s*(\d{1,10})\s*$/m;

// Shows the banner (after the checks doctor makes too); in the worker, follows it to its end.
export async function notifySend(
  notification: Notification,
  opts: DesktopOptions,
  ctx: SendContext,
): Promise<SendReport> {
  const { env, platform } = ctx.deps;
  const path = findProgram("notify-send", env, platform);
  if (!path) {
    throw new HookNotifyError(
      "SINK_UNAVAILABLE",
      `${ctx.sinkName}: notify-send not found. Install it (Debian/Ubuntu: apt install libnotify-bin; Fedora: dnf install libnotify).`,
      { sink: ctx.sinkName, retryable: false },
    );
  }
  if (!hasSessionBus(env)) {
    throw new HookNotifyError(
      "SINK_UNAVAILABLE",
      `${ctx.sinkName}: no desktop session here (no D-Bus session bus or display; SSH or a container?). Use a chat or e-mail sink on this machine.`,
      { sink: ctx.sinkName, retryable: false },
    );
  }
  const hold = await listenerFor(opts, ctx);
  if ("why" in hold) {
    const report = await showPlainly(path, notification, opts, ctx, undefined);
    // The worker says in the log why it cannot tell how the banner ended.
    if (ctx.deps.worker && report.shownId !== undefined)
      ctx.receipt?.({ state: "unknown", id: report.shownId, reason: hold.why });
    return { ...report.sent, action: `none: ${hold.why}` };
  }
  const click = clickAction(ctx);
  if ("place" in click) {
    try {
      return await showClickable(path, notification, opts, ctx, hold, click);
    } catch (error) {
      // libnotify 0.7's notify-send has no --action: the banner goes without one.
      if (!/Unknown option/i.test(toHookNotifyError(error).message)) {
        hold.release();
        throw error;
      }
      click.why = "this notify-send has no --action (libnotify 0.8 has it)";
    }
  }
  const report = await showPlainly(path, notification, opts, ctx, hold);
  return { ...report.sent, action: `none: ${click.why ?? "no click action"}` };
}

// The worker follows its banners (a hook's, the outbox's) for focusSeconds; nobody else does.
async function listenerFor(
  opts: DesktopOptions,
  ctx: SendContext,
): Promise<ListenerHold | { why: string }> {
  if (opts.focusSeconds === 0) return { why: "focusSeconds is 0" };
  if (!ctx.deps.worker)
    return {
      why: "only the background worker listens for a click, where it knows the hook's session (the hook, --wait, flush, test and a fallback never wait for one)",
    };
  return holdListener(ctx.deps);
}

async function showClickable(
  path: string,
  notification: Notification,
  opts: DesktopOptions,
  ctx: SendContext,
  hold: ListenerHold,
  click: { place: FocusPlace; what: string; stdbuf: string },
): Promise<SendReport> {
  const args = notifySendArgs(notification, opts, true);
  const shown = await showWithAction(
    [click.stdbuf, "-oL", path, ...args],
    ctx,
    settleMs("desktop", ctx.deps.env),
  );
  ctx.receipt?.({ state: "shown", id: shown.id });
  const env = ctx.deps.env;
  const closed = hold.follow(shown.id, {
    seconds: opts.focusSeconds,
    ...(shown.noAction ? {} : { onClick: () => focusClicked(click.place, env) }),
  });
  reportEnd(closed, ctx);
  const action = shown.noAction ? `none: ${shown.noAction}` : `click: ${click.what}`;
  return { messageId: shown.id, action, closed };
}

// The banner without an action; with a hold, followed for its close.
async function showPlainly(
  path: string,
  notification: Notification,
  opts: DesktopOptions,
  ctx: SendContext,
  hold: ListenerHold | undefined,
): Promise<{ sent: SendReport; shownId?: string }> {
  let shownId: string | undefined;
  try {
    const result = await runProgram(path, notifySendArgs(notification, opts), {
      env: ctx.deps.env,
      signal: ctx.signal,
      // The worker waits for the id of a banner it follows (notify-send exits right after it).
      wait: ctx.wait || hold !== undefined,
      sinkName: ctx.sinkName,
      settleMs: settleMs("desktop", ctx.deps.env),
      fix: "Is a notification daemon running? (dunst, mako, or your desktop's own; see hook-notify doctor)",
      onOutput: (text) => {
        shownId = ID.exec(text)?.[1];
        if (shownId !== undefined) ctx.receipt?.({ state: "shown", id: shownId });
      },
    }).catch((error: unknown) => {
      // The daemon gave the banner its id: shown, however notify-send ended after that.
      if (hold && shownId !== undefined) return "exited" as const;
      throw error;
    });
    if (hold && shownId !== undefined) {
      const closed = hold.follow(shownId, { seconds: opts.focusSeconds });
      reportEnd(closed, ctx);
      return { sent: { messageId: shownId, closed }, shownId };
    }
    return { sent: result === "running" ? { started: true } : {}, ...(shownId ? { shownId } : {}) };
  } finally {
    hold?.release();
  }
}

// The log's receipt of the banner's end: clicked, closed (and why), or why it is not known.
function reportEnd(closed: Promise<BannerEnd>, ctx: SendContext): void {
  void closed.then((end) => {
    const state: ReceiptEvent["state"] = end.ended;
    ctx.receipt?.({ state, id: end.id, reason: end.reason });
  });
}

// What a click on the banner can bring back here, or why the banner goes without an action.
function clickAction(
  ctx: SendContext,
): { place: FocusPlace; what: string; stdbuf: string; why?: string } | { why: string } {
  const { env, platform, ppid } = ctx.deps;
  const stdbuf = findProgram("stdbuf", env, platform);
  if (!stdbuf) return { why: "stdbuf not found (coreutils): notify-send would tell the id late" };
  const place = findPlace(env, platform, ppid);
  const gap = linuxFocusGap(place, (program) => !!findProgram(program, env, platform));
  return gap ? { why: gap } : { place, what: describePlace(place), stdbuf };
}
