import { existsSync } from "node:fs";
import * as z from "zod/mini";
import type { Deps } from "../deps.js";
import { HookNotifyError } from "../errors.js";
import type { Level, Notification } from "../message/notification.js";
import { findProgram } from "./find-program.js";
import { runProgram } from "./run-program.js";
import { defineSink } from "./sink.js";
import { notifyWithNodeNotifier } from "./desktop-node-notifier.js";
import { escapeBody } from "./notify-send-text.js";

function optionsSchema() {
  return z.strictObject({
    /** notify-send is preferred on Linux: no shell, real urgency, and node-notifier costs 40-70 ms. */
    backend: z._default(
      z
        .enum(["auto", "notify-send", "node-notifier"])
        .check(
          z.describe(
            '"auto": notify-send on Linux (WSL too, where Node reports Linux) and the BSDs; node-notifier on macOS and Windows. In WSL, "node-notifier" shows Windows toasts.',
          ),
        ),
      "auto",
    ),
    appName: z._default(
      z
        .string()
        .check(
          z.minLength(1),
          z.describe("The application name the notification daemon shows (the app ID on Windows)."),
        ),
      "hook-notify",
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
export function notifySendArgs(notification: Notification, opts: DesktopOptions): string[] {
  const urgency = notification.failure
    ? "critical"
    : notification.level === "attention"
      ? "normal"
      : "low";
  const args = [
    `--app-name=${opts.appName}`,
    `--urgency=${urgency}`,
    `--icon=${opts.icon ?? ICONS[notification.level]}`,
    `--category=${notification.failure ? "im.error" : "im.received"}`,
  ];
  if (opts.expireSeconds !== undefined)
    args.push(`--expire-time=${Math.round(opts.expireSeconds * 1000)}`);
  args.push("--", notification.title, escapeBody(notification.body));
  return args;
}

// Which program shows the notification on this platform (doctor checks the same one).
export function backendFor(
  opts: Pick<DesktopOptions, "backend">,
  platform: NodeJS.Platform,
): "notify-send" | "node-notifier" {
  if (opts.backend !== "auto") return opts.backend;
  return platform === "linux" || platform === "freebsd" || platform === "openbsd"
    ? "notify-send"
    : "node-notifier";
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
  render(notification, opts, deps) {
    const backend = backendFor(opts, deps.platform);
    if (backend === "node-notifier") {
      return {
        backend,
        title: notification.title,
        message: notification.body,
        critical: notification.failure,
      };
    }
    return { backend, program: "notify-send", args: notifySendArgs(notification, opts) };
  },
  async send(notification, opts, ctx) {
    const { env, platform } = ctx.deps;
    if (backendFor(opts, platform) === "node-notifier") {
      await notifyWithNodeNotifier(notification, opts, ctx);
      return;
    }
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
    await runProgram(path, notifySendArgs(notification, opts), { ...ctx, env, wait: ctx.wait });
  },
});
