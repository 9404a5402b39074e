import { HookNotifyError } from "../errors.js";
import type { Notification } from "../core/notification.js";
import { settleMs } from "./platform.js";
import type { SendContext, SendReport } from "./sink.js";

interface NodeNotifierOptions {
  appName: string;
  icon?: string | undefined;
}

// macOS, Windows and WSL through node-notifier, loaded only here (it costs 40-70 ms to load).
export async function notifyWithNodeNotifier(
  notification: Notification,
  opts: NodeNotifierOptions,
  ctx: SendContext,
): Promise<SendReport> {
  const { default: notifier } = await import("node-notifier");
  const request = {
    title: notification.title,
    // On Linux node-notifier runs notify-send, whose g_strcompress() turns "\\" into "\", "\n"
    // into a newline: doubling every backslash keeps the text as it was.
    message:
      ctx.deps.platform === "linux"
        ? (notification.body || notification.title).replaceAll("\\", "\\\\")
        : notification.body || notification.title,
    // macOS: without timeout:false terminal-notifier keeps the process for 10 s.
    timeout: false as const,
    wait: false,
    sound: false,
    appID: opts.appName,
    ...(opts.icon ? { icon: opts.icon } : {}),
  };
  return new Promise<SendReport>((resolve, reject) => {
    // On the hook path the answer is awaited only briefly: the hook's exit would cut it off, so
    // no answer by then is "started", never "delivered".
    const timer = ctx.wait
      ? undefined
      : setTimeout(
          () => {
            resolve({ started: true, via: "node-notifier" });
          },
          settleMs("desktop", ctx.deps.env),
        );
    ctx.signal.addEventListener("abort", () => {
      if (!ctx.wait) {
        resolve({ started: true, via: "node-notifier" });
        return;
      }
      reject(
        new HookNotifyError(
          "SINK_TIMEOUT",
          `${ctx.sinkName}: the desktop notifier did not answer in time.`,
          { sink: ctx.sinkName },
        ),
      );
    });
    notifier.notify(request, (error: Error | null) => {
      clearTimeout(timer);
      if (!error) resolve({ via: "node-notifier" });
      else
        reject(
          new HookNotifyError("SINK_FAILED", `${ctx.sinkName}: ${firstLine(error.message)}`, {
            sink: ctx.sinkName,
            cause: error,
            retryable: false,
          }),
        );
    });
  });
}

// node-notifier's errors carry the whole command line, notification text included: keep one line.
function firstLine(message: string): string {
  return (message.split("\n")[0] ?? "").slice(0, 200);
}
