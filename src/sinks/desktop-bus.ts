// Linux and the BSDs: the freedesktop notification service over D-Bus (src/dbus), as every banner
// here (the desktop sink, approve's buttons, doctor's checks) reaches it. The background worker
// keeps one connection for its life (sharedNotificationBus); anyone else (the hook's fallback,
// --wait, flush, test, doctor) opens one for the call and ends it after.
import type { AskAhead, NotificationBus } from "../dbus/notifications.js";
import { HookNotifyError, toHookNotifyError } from "../errors.js";

export type { NotificationBus };

type Env = Record<string, string | undefined>;

/** How long opening a connection of one's own may take (the worker's is kept). */
const OPEN_MS = 5_000;

// Runs `use` with a connection to the session bus: the worker's kept one, or one opened for this
// call and ended after it (also when `use` fails). A failure names `place` ("desktop: …").
export async function withNotificationBus<T>(
  env: Env,
  options: { worker?: boolean | undefined; signal?: AbortSignal | undefined; place: string },
  use: (bus: NotificationBus) => Promise<T>,
): Promise<T> {
  const { withBus } = await import("../dbus/notifications.js");
  try {
    return await withBus(env, { ...options, timeoutMs: OPEN_MS }, use);
  } catch (error) {
    throw placed(error, options.place);
  }
}

// The error with the place in front of its message ("desktop: no D-Bus session bus here …"), its
// code and retryability kept.
function placed(error: unknown, place: string): HookNotifyError {
  const known = toHookNotifyError(error);
  if (known.message.startsWith(`${place}: `)) return known;
  return new HookNotifyError(known.code, `${place}: ${known.message}`, {
    sink: place,
    cause: error,
    retryable: known.retryable,
  });
}

// The body made inert for the daemon: where it reads markup (the server lists "body-markup";
// the list is cached per connection), & < > are escaped so the text shows as it was written.
export async function inertBody(bus: NotificationBus, body: string): Promise<string> {
  const capabilities = await bus.capabilities();
  if (!capabilities.includes("body-markup")) return body;
  return body.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** Whether the daemon shows a banner's buttons (the "actions" capability). */
export async function hasActions(bus: NotificationBus): Promise<boolean> {
  return (await bus.capabilities()).includes("actions");
}

/** The worker, as it starts, where a banner goes over D-Bus (Linux and the BSDs, not WSL): its
 * kept connection is opened beside its own start (connecting, authenticating and Hello take a
 * cold node ~11 ms), and the daemon's capabilities (kept per connection: the banner reads them
 * for its body and its buttons) and `ahead`'s Inhibited are asked behind Hello, in its write, so
 * its first banner is one message with no round trip before it. No bus here: nothing, and the
 * banner's own attempt says why. */
export function openBusAhead(env: Env, platform: NodeJS.Platform, ahead: AskAhead): void {
  if (platform === "darwin" || platform === "win32" || env.WSL_DISTRO_NAME) return;
  void import("../dbus/notifications.js")
    .then((dbus) => dbus.sharedNotificationBus(env, ahead))
    .catch(() => undefined);
}
