// Pure: reads dbus-monitor's text output, line by line, into what happened to banners. The
// listener's match rules (banner-listener.ts) let through only the notification daemon's
// NotificationClosed(id, reason) and ActionInvoked(id, key) for hook-notify's fixed keys, so every
// argument printed is a number or one of those literals: no text anyone chose reaches this parser. Anything else (the
// monitor's own NameAcquired, a line of an unexpected shape) is skipped, never guessed at.

/** What the listener learned: a banner closed (and why), a banner's click, or that it listens. */
export type BannerSignal =
  | { kind: "closed"; id: string; reason: string }
  | { kind: "clicked"; id: string; action: BannerAction }
  | { kind: "ready" };

/** Feeds lines (without their newline) and returns a signal when one is complete. */
export interface SignalParser {
  push(line: string): BannerSignal | undefined;
}

const HEADER =
  /^signal time=\d+(?:\.\d+)? sender=(\S+) -> destination=(?:\S+|\(null destination\)) serial=\d+ path=([^;\s]+); interface=([^;\s]+); member=(\w+)$/;
const UINT32 = /^ {3}uint32 (\d{1,10})$/;
/** The action keys hook-notify puts on banners: the body's click, approve's Allow and Deny, and a
 * question's options (banner-answer.ts): fixed literals, the only action text this parser takes. */
export const ACTION_KEYS = [
  "default",
  "hn-allow",
  "hn-deny",
  "hn-option-1",
  "hn-option-2",
  "hn-option-3",
  "hn-option-4",
] as const;
export type BannerAction = (typeof ACTION_KEYS)[number];
const ACTION = /^ {3}string "(default|hn-allow|hn-deny|hn-option-[1-4])"$/;
const UNIQUE_NAME = /^:\d+\.\d+$/;
const NOTIFICATIONS = "org.freedesktop.Notifications";
const PATH = "/org/freedesktop/Notifications";

// The freedesktop notification spec's reasons, in words for the log (4 is "undefined/reserved").
const REASONS: Record<string, string> = {
  "1": "expired",
  "2": "dismissed",
  "3": "closed by a program",
  "4": "closed (reason undefined)",
};

// NotificationClosed's reason in words; a number outside the spec says so.
export function closeReason(code: string): string {
  return REASONS[code] ?? `closed (reason ${code}, not in the spec)`;
}

type Expecting = "closed" | "clicked" | "ready" | undefined;

// A parser for one dbus-monitor process (it keeps the signal being read across lines).
export function createSignalParser(): SignalParser {
  let expecting: Expecting;
  let args: string[] = [];
  return {
    push(line) {
      const header = HEADER.exec(line);
      if (header) {
        expecting = expectFrom(header);
        args = [];
        return undefined;
      }
      if (expecting === undefined) return undefined;
      if (expecting === "ready") {
        // BecomeMonitor took the monitor's names away: from now on it sees the bus's traffic.
        expecting = undefined;
        return /^ {3}string ":\d+\.\d+"$/.test(line) ? { kind: "ready" } : undefined;
      }
      const number = UINT32.exec(line)?.[1];
      const action =
        expecting === "clicked" && args.length === 1 ? ACTION.exec(line)?.[1] : undefined;
      if (number === undefined && action === undefined) {
        expecting = undefined;
        return undefined;
      }
      args.push(number ?? action ?? "");
      return complete(expecting, args, () => (expecting = undefined));
    },
  };
}

function expectFrom(header: RegExpExecArray): Expecting {
  const [, sender = "", path, iface, member] = header;
  if (sender === "org.freedesktop.DBus" && member === "NameLost") return "ready";
  if (!UNIQUE_NAME.test(sender) || path !== PATH || iface !== NOTIFICATIONS) return undefined;
  if (member === "NotificationClosed") return "closed";
  if (member === "ActionInvoked") return "clicked";
  return undefined;
}

function complete(
  expecting: "closed" | "clicked",
  args: string[],
  done: () => void,
): BannerSignal | undefined {
  if (args.length < 2) return undefined;
  done();
  const [id = "", second = ""] = args;
  if (id === "0" || Number(id) > 0xffff_ffff) return undefined;
  if (expecting === "clicked") {
    const action = ACTION_KEYS.find((key) => key === second);
    return action === undefined ? undefined : { kind: "clicked", id, action };
  }
  return { kind: "closed", id, reason: closeReason(second) };
}
