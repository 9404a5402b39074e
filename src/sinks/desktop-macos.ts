// macOS: node-notifier's vendored terminal-notifier (1.7.2, x86_64 only) where it can run, and
// osascript's `display notification` otherwise and whenever terminal-notifier fails.
import type { Deps } from "../deps.js";
import { HookNotifyError, toHookNotifyError } from "../errors.js";
import type { Notification } from "../core/notification.js";
import { followArgs, followIterm, type ItermFollow } from "./desktop-macos-click.js";
import { findPlace } from "../focus/place.js";
import { findProgram } from "./find-program.js";
import { isExecutable, nodeNotifierVendorDir, terminalNotifierIn } from "./node-notifier-vendor.js";
import { canRunIntel, settleMs } from "./platform.js";
import { runProgram } from "./run-program.js";
import type { BannerEnd, SendContext, SendReport } from "./sink.js";

/** The text never enters this source: title, body and subtitle arrive as argv items. */
export const OSASCRIPT_LINES = [
  "on run argv",
  // Counted from the end, so the items are the same whether or not osascript keeps "--".
  "display notification (item -2 of argv) with title (item -3 of argv) subtitle (item -1 of argv)",
  "end run",
];

// Failures keep their own look: a subtitle, as the critical urgency on Linux.
function subtitle(notification: Notification): string {
  return notification.failure ? "Failed" : "";
}

// osascript -e … -- title body subtitle: "--" ends osascript's options (a title may start with "-").
export function osascriptArgs(notification: Notification): string[] {
  const script = OSASCRIPT_LINES.flatMap((line) => ["-e", line]);
  return [...script, "--", notification.title, notification.body, subtitle(notification)];
}

// terminal-notifier reads its options through NSUserDefaults, which takes a value that starts
// with "-" for an option and parses "(", "{", "<" or '"' as a property list; it drops one leading
// backslash, so such a value gets one.
export function asValue(text: string): string {
  return /^[-\\({<"']/.test(text) ? `\\${text}` : text;
}

// `activate`: the bundle id of the terminal app a click on the banner brings to the front
// (checked by focus/place.ts: letters, digits, dots and dashes only).
export function terminalNotifierArgs(notification: Notification, activate?: string): string[] {
  const args = ["-title", asValue(notification.title)];
  args.push("-message", asValue(notification.body || notification.title));
  if (notification.failure) args.push("-subtitle", subtitle(notification));
  if (activate) args.push("-activate", activate);
  return args;
}

// The terminal app a click brings back (terminal-notifier's -activate), from the hook's variables.
export function activateId(deps: Pick<Deps, "env">): string | undefined {
  return findPlace(deps.env, "darwin").macBundleId;
}

// For the log: what a click on the banner does, or why it does nothing.
function macAction(
  program: "terminal-notifier" | "osascript",
  bundleId: string | undefined,
): string {
  if (program === "osascript")
    return "none: a click on an osascript banner opens Script Editor; terminal-notifier (Intel, or Rosetta 2) can bring the terminal back";
  if (!bundleId)
    return "none: the terminal app is not known (neither __CFBundleIdentifier nor a known TERM_PROGRAM)";
  return `click: activates ${bundleId} (a tmux pane is not selected on macOS)`;
}

/** node-notifier's terminal-notifier inside its package; undefined when not installed. */
export function vendoredTerminalNotifier(): string | undefined {
  const vendor = nodeNotifierVendorDir();
  return vendor === undefined ? undefined : terminalNotifierIn(vendor);
}

/** The program macOS starts first, and why the other is not tried first. */
export type MacRoute =
  | { program: "terminal-notifier"; path: string }
  | { program: "osascript"; path: string | undefined; why: string };

// terminal-notifier where this Mac can run it, else osascript (doctor shows the same choice).
export function macRoute(deps: Pick<Deps, "env" | "platform" | "arch">): MacRoute {
  const osascript = findOsascript(deps);
  if (!canRunIntel(deps)) {
    return {
      program: "osascript",
      path: osascript,
      why: "Apple Silicon without Rosetta 2: terminal-notifier (x86_64 only) cannot run",
    };
  }
  const vendored = vendoredTerminalNotifier();
  if (vendored && isExecutable(vendored)) return { program: "terminal-notifier", path: vendored };
  return {
    program: "osascript",
    path: osascript,
    why: `terminal-notifier is missing or not executable (${vendored ?? "node-notifier not installed"})`,
  };
}

// Shows the banner; a terminal-notifier failure (exit code, EBADARCH, EACCES) falls back to osascript.
export async function notifyMac(
  notification: Notification,
  ctx: SendContext,
  { osascriptOnly = false, focusSeconds = 0 } = {},
): Promise<SendReport> {
  const env = ctx.deps.env;
  const run = {
    env,
    signal: ctx.signal,
    wait: ctx.wait,
    sinkName: ctx.sinkName,
    settleMs: settleMs("desktop", env),
  };
  const route: MacRoute = osascriptOnly
    ? { program: "osascript", path: findOsascript(ctx.deps), why: '"backend": "osascript"' }
    : macRoute(ctx.deps);
  let fallback = "";
  const bundleId = activateId(ctx.deps);
  if (route.program === "terminal-notifier") {
    try {
      const args = terminalNotifierArgs(notification, bundleId);
      const follow = itermFollow(ctx, route.path, args, focusSeconds);
      if (follow) return await showFollowed(follow, ctx, run.settleMs);
      const result = await runProgram(route.path, args, run);
      const action = macAction("terminal-notifier", bundleId);
      return { started: result === "running", via: "terminal-notifier", action };
    } catch (error) {
      fallback = ` (terminal-notifier failed: ${oneLine(toHookNotifyError(error).message)})`;
    }
  }
  const osascript = route.program === "osascript" ? route.path : findOsascript(ctx.deps);
  if (!osascript) {
    throw new HookNotifyError(
      "SINK_UNAVAILABLE",
      `${ctx.sinkName}: osascript not found (it is in /usr/bin on every Mac; is PATH cut down?)${fallback}.`,
      { sink: ctx.sinkName, retryable: false },
    );
  }
  const fix =
    "Check that Script Editor may notify (System Settings → Notifications), then: hook-notify test --sink " +
    ctx.sinkName;
  const result = await runProgram(osascript, osascriptArgs(notification), { ...run, fix });
  return {
    started: result === "running",
    via: `osascript${fallback}`,
    action: macAction("osascript", bundleId),
  };
}

// osascript on PATH, else /usr/bin/osascript, where every Mac has it.
function findOsascript(deps: Pick<Deps, "env" | "platform">): string | undefined {
  return (
    findProgram("osascript", deps.env, deps.platform) ??
    findProgram("/usr/bin/osascript", deps.env, deps.platform)
  );
}

function oneLine(text: string): string {
  return (text.split("\n")[0] ?? "").slice(0, 200);
}

// In the worker, for an agent in an iTerm2 session: terminal-notifier is followed until the
// banner ends, and a click selects that session (sinks/desktop-macos-click.ts). Elsewhere: undefined.
function itermFollow(
  ctx: SendContext,
  notifier: string,
  args: readonly string[],
  seconds: number,
): ItermFollow | undefined {
  const session = findPlace(ctx.deps.env, "darwin").itermSession;
  if (session === undefined || seconds === 0 || !ctx.deps.worker || ctx.wait) return undefined;
  const osascript = findOsascript(ctx.deps);
  return { notifier, args: [...args, ...followArgs(seconds)], session, seconds, osascript };
}

// Shows the followed banner; a terminal-notifier that fails at once is an error (osascript then
// shows the banner instead), otherwise the banner's end arrives later, as a receipt.
async function showFollowed(
  follow: ItermFollow,
  ctx: SendContext,
  settleMs: number,
): Promise<SendReport> {
  const closed = followIterm(follow, ctx.deps, ctx.sinkName);
  let timer: NodeJS.Timeout | undefined;
  const early = await Promise.race([
    closed,
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => {
        resolve(undefined);
      }, settleMs);
    }),
  ]);
  clearTimeout(timer);
  if (early?.ended === "unknown") {
    throw new HookNotifyError("SINK_UNAVAILABLE", `${ctx.sinkName}: ${early.reason}`, {
      sink: ctx.sinkName,
    });
  }
  void closed.then((end: BannerEnd) => {
    ctx.receipt?.({ state: end.ended, id: end.id, reason: end.reason });
  });
  const action = `click: selects iTerm2 session ${follow.session}`;
  return { started: true, via: "terminal-notifier", action, closed };
}
