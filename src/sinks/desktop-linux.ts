// Linux and the BSDs: the banner through notify-send, and, in the background worker, its story
// for the log: shown (the daemon's id), then clicked (what the click brought back), closed (the
// daemon's reason: expired, dismissed, closed by a program), or why that could not be learnt.
// The bus's one listener (banner-listener.ts) learns both the click and the close.
import type { Notification } from "../core/notification.js";
import type { ReceiptEvent } from "../core/receipt.js";
import { HookNotifyError, toHookNotifyError } from "../errors.js";
import { focusClicked } from "../focus/focus-linux.js";
import { describePlace, findPlace, linuxFocusGap, type FocusPlace } from "../focus/place.js";
import { holdListener, listenerMissing, type ListenerHold } from "./banner-listener.js";
import { showWithAction } from "./desktop-click.js";
import { hasSessionBus, notifySendArgs, type DesktopOptions } from "./desktop.js";
import { findProgram } from "./find-program.js";
import { bannerId } from "./notify-send-text.js";
import { settleMs } from "./platform.js";
import { runProgram } from "./run-program.js";
import type { BannerEnd, SendContext, SendReport } from "./sink.js";

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
  const why = noListener(opts, ctx);
  if (why !== undefined) {
    const report = await showPlainly(path, notification, opts, ctx, undefined);
    // The worker says in the log why it cannot tell how the banner ended.
    if (ctx.deps.worker && report.shownId !== undefined)
      ctx.receipt?.({ state: "unknown", id: report.shownId, reason: why });
    return { ...report.sent, action: `none: ${why}` };
  }
  // The banner first: the listener (dbus-monitor) starts once notify-send has, and the banner's
  // id waits for it to listen, not the banner (a click or a close comes after the banner is up).
  const click = clickAction(ctx);
  if ("place" in click) {
    try {
      return await showClickable(path, notification, opts, ctx, click);
    } catch (error) {
      // libnotify 0.7's notify-send has no --action: the banner goes without one.
      if (!/Unknown option/i.test(toHookNotifyError(error).message)) throw error;
      click.why = "this notify-send has no --action (libnotify 0.8 has it)";
    }
  }
  const report = await showPlainly(path, notification, opts, ctx, listening);
  return { ...report.sent, action: report.why ?? `none: ${click.why ?? "no click action"}` };
}

/** Starts (or joins) the bus's listener: called right after the banner's program started. */
const listening = (ctx: SendContext): Promise<ListenerHold | { why: string }> =>
  holdListener(ctx.deps);

// The worker follows its banners (a hook's, the outbox's) for focusSeconds; nobody else does.
// Why this banner is not followed, known before it is shown; undefined when it is.
function noListener(opts: DesktopOptions, ctx: SendContext): string | undefined {
  if (opts.focusSeconds === 0) return "focusSeconds is 0";
  if (!ctx.deps.worker)
    return "only the background worker listens for a click, where it knows the hook's session (the hook, --wait, flush, test and a fallback never wait for one)";
  return listenerMissing(ctx.deps);
}

async function showClickable(
  path: string,
  notification: Notification,
  opts: DesktopOptions,
  ctx: SendContext,
  click: { place: FocusPlace; what: string; stdbuf: string },
): Promise<SendReport> {
  const args = notifySendArgs(notification, opts, true);
  const showing = showWithAction(
    [click.stdbuf, "-oL", path, ...args],
    ctx,
    settleMs("desktop", ctx.deps.env),
  );
  const holding = listening(ctx);
  let shown: Awaited<typeof showing>;
  try {
    shown = await showing;
  } catch (error) {
    void holding.then((hold) => {
      if (!("why" in hold)) hold.release();
    });
    throw error;
  }
  ctx.receipt?.({ state: "shown", id: shown.id });
  const hold = await holding;
  if ("why" in hold) {
    ctx.receipt?.({ state: "unknown", id: shown.id, reason: hold.why });
    return { messageId: shown.id, action: `none: ${hold.why}` };
  }
  const env = ctx.deps.env;
  const closed = hold.follow(shown.id, {
    seconds: opts.focusSeconds,
    ...(shown.noAction ? {} : { onClick: () => focusClicked(click.place, env) }),
  });
  reportEnd(closed, ctx);
  const action = shown.noAction ? `none: ${shown.noAction}` : `click: ${click.what}`;
  return { messageId: shown.id, action, closed };
}

// The banner without an action; with a listener (started by `listen` once notify-send has),
// followed for its close. The result is notify-send's own: a failure to start or a non-zero exit
// fails the sink (and its fallback runs), whatever the listener does meanwhile; the listener
// only tells how a banner that was shown ended. `why`: the listener could not follow it.
async function showPlainly(
  path: string,
  notification: Notification,
  opts: DesktopOptions,
  ctx: SendContext,
  listen: ((ctx: SendContext) => Promise<ListenerHold | { why: string }>) | undefined,
): Promise<{ sent: SendReport; shownId?: string; why?: string }> {
  let shownId: string | undefined;
  const running = runProgram(path, notifySendArgs(notification, opts), {
    env: ctx.deps.env,
    signal: ctx.signal,
    // The worker waits for notify-send's exit (right after the daemon answered): nobody waits for
    // the worker, and what it logs is what notify-send said. Only the hook leaves it running.
    wait: ctx.wait || ctx.deps.worker === true,
    sinkName: ctx.sinkName,
    settleMs: settleMs("desktop", ctx.deps.env),
    fix: "Is a notification daemon running? (dunst, mako, or your desktop's own; see hook-notify doctor)",
    onOutput: (text) => {
      shownId = bannerId(text);
    },
  });
  const holding = listen?.(ctx);
  let hold: ListenerHold | { why: string } | undefined;
  try {
    const result = await running;
    if (shownId !== undefined) ctx.receipt?.({ state: "shown", id: shownId });
    hold = await holding;
    if (hold && "why" in hold) {
      // The worker says in the log why it cannot tell how the banner ended.
      if (shownId !== undefined) ctx.receipt?.({ state: "unknown", id: shownId, reason: hold.why });
      return { sent: shownId ? { messageId: shownId } : {}, why: `none: ${hold.why}` };
    }
    if (hold && shownId !== undefined) {
      const closed = hold.follow(shownId, { seconds: opts.focusSeconds });
      reportEnd(closed, ctx);
      return { sent: { messageId: shownId, closed }, shownId };
    }
    return { sent: result === "running" ? { started: true } : {}, ...(shownId ? { shownId } : {}) };
  } finally {
    if (hold === undefined) void holding?.then(release);
    else release(hold);
  }
}

function release(hold: ListenerHold | { why: string }): void {
  if (!("why" in hold)) hold.release();
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
