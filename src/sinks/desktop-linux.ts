// Linux and the BSDs: the banner through the freedesktop notification service over D-Bus
// (desktop-bus.ts: the worker's kept connection, or one opened for the send), and, in the
// background worker, its story for the log: shown (the id in Notify's reply), then clicked (what
// the click brought back), closed (the daemon's reason: expired, dismissed, closed by a program),
// or why that could not be learnt. The bus's one listener (banner-listener.ts) learns both the
// click and the close; it starts right after Notify is sent, as the id comes with the reply.
import type { Notification } from "../core/notification.js";
import type { NotificationBus } from "../dbus/notifications.js";
import type { ReceiptEvent } from "../core/receipt.js";
import { focusClicked } from "../focus/focus-linux.js";
import { describePlace, findPlace, linuxFocusGap, type FocusPlace } from "../focus/place.js";
import { holdListener, listenerMissing, type ListenerHold } from "./banner-listener.js";
import { hasActions, inertBody, withNotificationBus } from "./desktop-bus.js";
import { notifyRequest, type DesktopOptions } from "./desktop.js";
import { findProgram } from "./find-program.js";
import type { BannerEnd, SendContext, SendReport } from "./sink.js";

// Shows the banner; in the worker, follows it to its end. A daemon's error or no daemon (no
// session bus, nobody owning org.freedesktop.Notifications) fails the sink, and its fallback runs.
export async function showOnBus(
  notification: Notification,
  opts: DesktopOptions,
  ctx: SendContext,
): Promise<SendReport> {
  const { env, worker } = ctx.deps;
  const place = { worker, signal: ctx.signal, place: ctx.sinkName };
  return withNotificationBus(env, place, async (bus) => {
    const body = await inertBody(bus, notification.body);
    const why = noListener(opts, ctx);
    if (why !== undefined) {
      const id = await show(bus, notifyRequest(notification, opts, body), ctx);
      // The worker says in the log why it cannot tell how the banner ended.
      if (worker) ctx.receipt?.({ state: "unknown", id, reason: why });
      return { messageId: id, action: `none: ${why}` };
    }
    const click = await clickAction(bus, ctx);
    const showing = show(bus, notifyRequest(notification, opts, body, "place" in click), ctx);
    // The listener (dbus-monitor) starts once Notify is on its way, not before the banner.
    const holding = holdListener(ctx.deps);
    let id: string;
    try {
      id = await showing;
    } catch (error) {
      void holding.then(release);
      throw error;
    }
    const hold = await holding;
    if ("why" in hold) {
      ctx.receipt?.({ state: "unknown", id, reason: hold.why });
      return { messageId: id, action: `none: ${hold.why}` };
    }
    const closed = hold.follow(id, {
      seconds: opts.focusSeconds,
      ...("place" in click ? { onClick: () => focusClicked(click.place, env) } : {}),
    });
    reportEnd(closed, ctx);
    const action = "place" in click ? `click: ${click.what}` : `none: ${click.why}`;
    return { messageId: id, action, closed };
  });
}

// Notify, and the receipt that the banner is up with the daemon's id.
async function show(
  bus: NotificationBus,
  request: ReturnType<typeof notifyRequest>,
  ctx: SendContext,
): Promise<string> {
  const id = String(await bus.notify(request, ctx.signal));
  ctx.receipt?.({ state: "shown", id });
  return id;
}

// The worker follows its banners (a hook's, the outbox's) for focusSeconds; nobody else does.
// Why this banner is not followed, known before it is shown; undefined when it is.
function noListener(opts: DesktopOptions, ctx: SendContext): string | undefined {
  if (opts.focusSeconds === 0) return "focusSeconds is 0";
  if (!ctx.deps.worker)
    return "only the background worker listens for a click, where it knows the hook's session (the hook, --wait, flush, test and a fallback never wait for one)";
  return listenerMissing(ctx.deps);
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
async function clickAction(
  bus: NotificationBus,
  ctx: SendContext,
): Promise<{ place: FocusPlace; what: string } | { why: string }> {
  const { env, platform, ppid } = ctx.deps;
  const place = findPlace(env, platform, ppid);
  const gap = linuxFocusGap(place, (program) => !!findProgram(program, env, platform));
  if (gap) return { why: gap };
  if (!(await hasActions(bus))) return { why: "the notification daemon does not support actions" };
  return { place, what: describePlace(place) };
}
