import { existsSync } from "node:fs";
import * as z from "../zod.js";
import type { Deps } from "../deps.js";
import { HookNotifyError, toHookNotifyError } from "../errors.js";
import { describePlace, findPlace, linuxFocusGap, type FocusPlace } from "../focus/place.js";
import type { Level, Notification } from "../core/notification.js";
import { findProgram } from "./find-program.js";
import { runProgram } from "./run-program.js";
import { defineSink, type SendContext, type SendReport } from "./sink.js";
import { notifyWithNodeNotifier } from "./desktop-node-notifier.js";
import {
  activateId,
  macRoute,
  notifyMac,
  osascriptArgs,
  terminalNotifierArgs,
} from "./desktop-macos.js";
import { notifyWindows, POWERSHELL_APP_ID, TOAST_SCRIPT, toastVars } from "./desktop-windows.js";
import { escapeBody } from "./notify-send-text.js";
import { findPowerShell, isWsl, powerShellArgs, settleMs } from "./platform.js";

function optionsSchema() {
  return z.strictObject({
    /** notify-send is preferred on Linux: no shell, real urgency, and node-notifier costs 40-70 ms. */
    backend: z._default(
      z
        .enum(["auto", "notify-send", "osascript", "powershell", "node-notifier"])
        .check(
          z.describe(
            '"auto": notify-send on Linux and the BSDs; on macOS terminal-notifier where it can run (Intel, or Rosetta 2) and osascript otherwise or when it fails; a PowerShell toast on Windows and in WSL. "node-notifier": that package\'s own choice (it is not watched for failures on Windows).',
          ),
        ),
      "auto",
    ),
    appName: z._default(
      z
        .string()
        .check(
          z.minLength(1),
          z.describe("The application name notify-send gives the notification daemon (Linux)."),
        ),
      "hook-notify",
    ),
    appId: z.optional(
      z
        .string()
        .check(
          z.minLength(1),
          z.describe(
            "Windows and WSL: the AppUserModelID the toast shows under. Default: Windows PowerShell's, which every install registers (an ID without a Start-menu shortcut shows nothing).",
          ),
        ),
    ),
    icon: z.optional(
      z
        .string()
        .check(
          z.describe(
            "Icon name or path. Default with notify-send: a freedesktop icon per level (dialog-question, dialog-information, dialog-error).",
          ),
        ),
    ),
    focusSeconds: z._default(
      z
        .number()
        .check(
          z.gte(0),
          z.lte(86_400),
          z.describe(
            "How long a click on the banner is listened for, in the background worker: on Linux notify-send waits for it and the click brings back the agent's tmux pane and terminal window; on Windows the toast's PowerShell waits and the click brings Windows Terminal to the front. 0: banners carry no action. On macOS terminal-notifier's -activate needs no listener.",
          ),
        ),
      600,
    ),
    expireSeconds: z.optional(
      z
        .number()
        .check(
          z.nonnegative(),
          z.describe(
            "notify-send only: how long the banner stays, in seconds. Default: the notification daemon's choice; failures are sent as critical, which most daemons keep until dismissed.",
          ),
        ),
    ),
  });
}

type DesktopOptions = z.infer<ReturnType<typeof optionsSchema>>;

const ICONS: Record<Level, string> = {
  attention: "dialog-question",
  done: "dialog-information",
  failure: "dialog-error",
};

// The argv for notify-send: text after "--", so a title starting with "-" is never an option.
// With `action`, the banner carries a default action (a click on it) and notify-send prints the
// banner's id and then waits (desktop-click.ts).
export function notifySendArgs(
  notification: Notification,
  opts: DesktopOptions,
  action = false,
): string[] {
  const urgency = notification.failure
    ? "critical"
    : notification.level === "attention"
      ? "normal"
      : "low";
  const args = [
    // The daemon's id for the banner, on stdout: the log's receipt that it was shown.
    "--print-id",
    `--app-name=${opts.appName}`,
    `--urgency=${urgency}`,
    `--icon=${opts.icon ?? ICONS[notification.level]}`,
    `--category=${notification.failure ? "im.error" : "im.received"}`,
  ];
  if (opts.expireSeconds !== undefined)
    args.push(`--expire-time=${Math.round(opts.expireSeconds * 1000)}`);
  if (action) args.push("--action=default=Focus");
  args.push("--", notification.title, escapeBody(notification.body));
  return args;
}

/** The way a desktop notification is shown; "macos" is terminal-notifier, then osascript. */
export type DesktopRoute = "notify-send" | "macos" | "osascript" | "powershell" | "node-notifier";

// Which program shows the notification on this machine (doctor checks the same one). WSL gets a
// Windows toast when powershell.exe is reachable through interop.
export function backendFor(
  opts: Pick<DesktopOptions, "backend">,
  deps: Pick<Deps, "env" | "platform" | "osRelease">,
): DesktopRoute {
  if (opts.backend !== "auto") return opts.backend;
  if (deps.platform === "darwin") return "macos";
  if (deps.platform === "win32") return "powershell";
  if (isWsl(deps) && findPowerShell(deps)) return "powershell";
  return "notify-send";
}

// notify-send needs a session bus; over SSH or in a container there is none, and it would fail.
export function hasSessionBus(env: Deps["env"]): boolean {
  if (env.DBUS_SESSION_BUS_ADDRESS || env.DISPLAY || env.WAYLAND_DISPLAY) return true;
  return !!env.XDG_RUNTIME_DIR && existsSync(`${env.XDG_RUNTIME_DIR}/bus`);
}

export const desktop = defineSink({
  type: "desktop",
  options: optionsSchema,
  remote: false,
  describeTarget: (opts) => (opts.backend === "auto" ? "desktop" : opts.backend),
  check: async (entry, ctx) => (await import("./desktop-checks.js")).checkDesktop(entry, ctx.deps),
  starters: [{ choice: "desktop", entry: () => ({ type: "desktop" }) }],
  explain: () => undefined,
  render(notification, opts, deps) {
    const backend = backendFor(opts, deps);
    switch (backend) {
      case "node-notifier":
        return {
          backend,
          title: notification.title,
          message: notification.body,
          critical: notification.failure,
        };
      case "macos":
      case "osascript": {
        const route = backend === "macos" ? macRoute(deps) : undefined;
        return route?.program === "terminal-notifier"
          ? {
              backend,
              program: route.path,
              args: terminalNotifierArgs(notification, activateId(deps)),
            }
          : { backend, program: "osascript", args: osascriptArgs(notification) };
      }
      case "powershell":
        return {
          backend,
          program: "powershell.exe",
          args: powerShellArgs(TOAST_SCRIPT),
          env: toastVars(notification, opts.appId ?? POWERSHELL_APP_ID),
        };
      case "notify-send":
        return { backend, program: "notify-send", args: notifySendArgs(notification, opts) };
    }
  },
  async send(notification, opts, ctx) {
    switch (backendFor(opts, ctx.deps)) {
      case "node-notifier":
        return notifyWithNodeNotifier(notification, opts, ctx);
      case "macos":
        return notifyMac(notification, ctx);
      case "osascript":
        return notifyMac(notification, ctx, { osascriptOnly: true });
      case "powershell":
        return notifyWindows(notification, opts.appId ?? POWERSHELL_APP_ID, ctx, opts.focusSeconds);
      case "notify-send":
        return notifySend(notification, opts, ctx);
    }
  },
});

// Linux and the BSDs: notify-send with an argv array, after the checks doctor makes too.
async function notifySend(
  notification: Notification,
  opts: DesktopOptions,
  ctx: SendContext,
): Promise<SendReport | undefined> {
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
  const click = clickAction(opts, ctx);
  let why: string;
  if ("place" in click) {
    const { notifySendWithAction } = await import("./desktop-click.js");
    try {
      const report = await notifySendWithAction(
        path,
        notifySendArgs(notification, opts, true),
        ctx,
        { ...click, seconds: opts.focusSeconds, settleMs: settleMs("desktop", env) },
      );
      receiptsOfBanner(report, ctx);
      return report;
    } catch (error) {
      // libnotify 0.7's notify-send has no --action: the banner goes without one.
      if (!/Unknown option/i.test(toHookNotifyError(error).message)) throw error;
      why = "this notify-send has no --action (libnotify 0.8 has it)";
    }
  } else why = click.why;
  const result = await runProgram(path, notifySendArgs(notification, opts), {
    env,
    signal: ctx.signal,
    wait: ctx.wait,
    sinkName: ctx.sinkName,
    settleMs: settleMs("desktop", env),
    fix: "Is a notification daemon running? (dunst, mako, or your desktop's own; see hook-notify doctor)",
    onOutput: (text) => {
      const id = /^\s*(\d+)\s*$/m.exec(text)?.[1];
      if (id !== undefined) ctx.receipt?.({ state: "shown", id });
    },
  });
  const action = `none: ${why}`;
  return result === "running" ? { started: true, action } : { action };
}

// The log's receipts of a banner with an action: shown (the daemon's id), then clicked (what the
// click brought back) or closed, as the worker's listener learns it (desktop-click.ts).
function receiptsOfBanner(report: SendReport, ctx: SendContext): void {
  if (report.messageId !== undefined) ctx.receipt?.({ state: "shown", id: report.messageId });
  void report.closed?.then((end) => {
    const id = end.id ?? report.messageId;
    if (end.action === "default") {
      const reason = end.focused?.length ? end.focused.join(", ") : "nothing to bring back";
      ctx.receipt?.({ state: "clicked", id, reason });
    } else if (end.ended === "closed") ctx.receipt?.({ state: "closed", id });
    else if (end.ended === "bound")
      ctx.receipt?.({ state: "closed", id, reason: "no click while the worker listened" });
  });
}

// What a click on the banner can bring back here, or why the banner goes without an action.
function clickAction(
  opts: DesktopOptions,
  ctx: SendContext,
): { place: FocusPlace; what: string } | { why: string } {
  const { env, platform, ppid } = ctx.deps;
  if (opts.focusSeconds === 0) return { why: "focusSeconds is 0" };
  if (!ctx.deps.worker || ctx.wait)
    return {
      why: "only the background worker listens for a click (the hook and test never wait for one)",
    };
  const place = findPlace(env, platform, ppid);
  const gap = linuxFocusGap(place, (program) => !!findProgram(program, env, platform));
  return gap ? { why: gap } : { place, what: describePlace(place) };
}
