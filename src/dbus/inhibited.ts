// The notification daemon's Inhibited property (its Do Not Disturb; KDE Plasma's daemon and
// others have it), read with Properties.Get on a connection; and the read a connection asks
// behind its Hello (notifications.ts, AskAhead), which answers the first read that comes soon.
import { HookNotifyError } from "../errors.js";
import type { BusConnection } from "./connection.js";
import { NOTIFICATIONS } from "./notification-signals.js";

const PROPERTIES = { ...NOTIFICATIONS, interface: "org.freedesktop.DBus.Properties" };
/** An Inhibited asked behind Hello answers the first read within this long; later reads ask. */
const AHEAD_KEEP_MS = 5_000;

export interface InhibitedReader {
  /** Rejects with the D-Bus error (`dbusError` UnknownProperty, InvalidArgs, UnknownMethod)
   *  where the daemon has none, SINK_FAILED when it is not a boolean. */
  read(signal?: AbortSignal): Promise<boolean>;
  /** Asks now, unanswered (behind Hello): the next read within AHEAD_KEEP_MS takes the answer. */
  askAhead(): void;
}

export function inhibitedReader(
  connection: BusConnection,
  timeoutMs: number,
  daemonError: (error: unknown) => unknown,
): InhibitedReader {
  let ahead: { asked: number; answer: Promise<boolean> } | undefined;
  const ask = async (signal?: AbortSignal): Promise<boolean> => {
    const get = { ...PROPERTIES, member: "Get", signature: "ss" };
    const reply = await connection
      .call({ ...get, body: [NOTIFICATIONS.interface, "Inhibited"] }, { timeoutMs, signal })
      .catch((error: unknown) => {
        throw daemonError(error);
      });
    const [variant] = reply.body;
    const value = typeof variant === "object" && !Array.isArray(variant) ? variant.value : variant;
    if (typeof value !== "boolean")
      throw new HookNotifyError("SINK_FAILED", "the daemon's Inhibited is not a boolean");
    return value;
  };
  return {
    read(signal) {
      const early = ahead;
      ahead = undefined;
      if (early && Date.now() - early.asked < AHEAD_KEEP_MS) return early.answer;
      return ask(signal);
    },
    askAhead() {
      const answer = ask();
      answer.catch(() => undefined); // a read takes it, or nobody needs it
      ahead = { asked: Date.now(), answer };
    },
  };
}
