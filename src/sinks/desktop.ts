import { existsSync } from "node:fs";
import * as z from "../zod.js";
import type { NotifyRequest } from "../dbus/notifications.js";
import type { Deps } from "../deps.js";
import type { Level, Notification } from "../core/notification.js";
import { defineSink } from "./sink.js";
import { notifyWithNodeNotifier } from "./desktop-node-notifier.js";
import {
  activateId,
  macRoute,
  notifyMac,
  osascriptArgs,
  terminalNotifierArgs,
} from "./desktop-macos.js";
import { notifyWindows, POWERSHELL_APP_ID, TOAST_SCRIPT, toastVars } from "./desktop-windows.js";
import { findPowerShell, isWsl, powerShellArgs } from "./platform.js";

function optionsSchema() {
  return z.strictObject({
    /** The notification service over the worker's own D-Bus connection is preferred on Linux: no program started, real urgency, the id in the reply. */
    backend: z._default(
      z
        .enum(["auto", "notify-send", "osascript", "powershell", "node-notifier"])
        .check(
          z.describe(
            '"auto": "notify-send" on Linux and the BSDs (the historical name of the freedesktop notification service over D-Bus: hook-notify sends Notify itself, no program needed); on macOS terminal-notifier where it can run (Intel, or Rosetta 2) and osascript otherwise or when it fails; a PowerShell toast on Windows and in WSL. "node-notifier": that package\'s own choice (it is not watched for failures on Windows).',
          ),
        ),
      "auto",
    ),
    appName: z._default(
      z
        .string()
        .check(
          z.minLength(1),
          z.describe("The application name the notification daemon is given (Linux and the BSDs)."),
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
            "Icon name or path. Default on Linux and the BSDs: a freedesktop icon per level (dialog-question, dialog-information, dialog-error, dialog-warning for a usage limit).",
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
            "How long the background worker follows a banner: on Linux its one dbus-monitor listener learns the click (which brings back the agent's tmux pane and terminal window) and how the banner closed (expired, dismissed: for the log), at most 16 banners at once; on Windows the toast's PowerShell waits for the click, which brings Windows Terminal to the front. 0: banners carry no action and are not followed. On macOS terminal-notifier's -activate needs no listener; for an agent in an iTerm2 session, terminal-notifier waits for the click, which selects that session.",
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
            "Linux and the BSDs only: how long the banner stays, in seconds. Default: the notification daemon's choice; failures are sent as critical, which most daemons keep until dismissed.",
          ),
        ),
    ),
  });
}

export type DesktopOptions = z.infer<ReturnType<typeof optionsSchema>>;

const ICONS: Record<Level, string> = {
  attention: "dialog-question",
  done: "dialog-information",
  failure: "dialog-error",
  info: "dialog-information",
  limit: "dialog-warning",
};

// Critical (most daemons keep it until dismissed) for a failure, normal when the agent waits or a
// usage limit stopped it, low (no pop-up on some desktops) when done and for a notice.
const URGENCY: Record<Level, 0 | 1 | 2> = {
  failure: 2,
  attention: 1,
  limit: 1,
  done: 0,
  info: 0,
};

/** The click action of a banner that brings the agent's terminal back. */
export const FOCUS_ACTION = ["default", "Focus"];

// The Notify call for the freedesktop notification service. `body` is already made inert for the
// daemon (desktop-bus.ts inertBody); with `action`, a click on the banner is its default action.
export function notifyRequest(
  notification: Notification,
  opts: DesktopOptions,
  body: string,
  action = false,
): NotifyRequest {
  return {
    appName: opts.appName,
    icon: opts.icon ?? ICONS[notification.level],
    summary: notification.title,
    body,
    actions: action ? FOCUS_ACTION : [],
    hints: {
      urgency: URGENCY[notification.level],
      category: notification.failure ? "im.error" : "im.received",
    },
    expireTimeoutMs: opts.expireSeconds === undefined ? -1 : Math.round(opts.expireSeconds * 1000),
  };
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

// A banner needs a session bus; over SSH or in a container there is none, and it would fail.
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
        // The call as sent where the daemon reads no markup (where it does, & < > are escaped).
        return { backend, notify: notifyRequest(notification, opts, notification.body) };
    }
  },
  async send(notification, opts, ctx) {
    switch (backendFor(opts, ctx.deps)) {
      case "node-notifier":
        return notifyWithNodeNotifier(notification, opts, ctx);
      case "macos":
        return notifyMac(notification, ctx, { focusSeconds: opts.focusSeconds });
      case "osascript":
        return notifyMac(notification, ctx, { osascriptOnly: true });
      case "powershell":
        return notifyWindows(notification, opts.appId ?? POWERSHELL_APP_ID, ctx, opts.focusSeconds);
      case "notify-send":
        return (await import("./desktop-linux.js")).showOnBus(notification, opts, ctx);
    }
  },
});
