import { HookNotifyError } from "../errors.js";
import type { Notification } from "../message/notification.js";
import { escapeBody } from "./notify-send-text.js";
import type { SendContext } from "./sink.js";

interface NodeNotifierOptions {
  appName: string;
  icon?: string | undefined;
}

// macOS, Windows and WSL through node-notifier, loaded only here (it costs 40-70 ms to load).
export async function notifyWithNodeNotifier(
  notification: Notification,
  opts: NodeNotifierOptions,
  ctx: SendContext,
): Promise<void> {
  const { default: notifier } = await import("node-notifier");
  const request = {
    title: notification.title,
    // On Linux node-notifier runs notify-send, which unescapes the body: keep backslashes literal.
    message:
      ctx.deps.platform === "linux"
        ? escapeBody(notification.body || notification.title)
        : notification.body || notification.title,
    // macOS: without timeout:false terminal-notifier keeps the process for 10 s.
    timeout: false as const,
    wait: false,
    sound: false,
    appID: opts.appName,
    ...(opts.icon ? { icon: opts.icon } : {}),
  };
  await new Promise<void>((resolve, reject) => {
    if (!ctx.wait) {
      notifier.notify(request);
      resolve();
      return;
    }
    ctx.signal.addEventListener("abort", () => {
      reject(
        new HookNotifyError(
          "SINK_TIMEOUT",
          `${ctx.sinkName}: the desktop notifier did not answer in time.`,
          { sink: ctx.sinkName },
        ),
      );
    });
    notifier.notify(request, (error: Error | null) => {
      if (!error) resolve();
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
