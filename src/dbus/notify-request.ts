// The body of org.freedesktop.Notifications.Notify (signature susssasa{sv}i, the Desktop
// Notifications Specification): pure. Hints are variants of the types the specification gives
// them: urgency a byte, category and desktop-entry strings, resident and transient booleans.
// Strings go as D-Bus strings (marshal.ts replaces a NUL or lone surrogate); nothing is interpreted.
import type { DbusValue, Variant } from "./signature.js";

export const NOTIFY_SIGNATURE = "susssasa{sv}i";

export interface NotifyRequest {
  appName: string;
  /** 0 / undefined: a new banner. */
  replacesId?: number | undefined;
  /** A path or an icon name; "" for none. */
  icon: string;
  /** Plain text; the caller made it inert. */
  summary: string;
  /** Already escaped for the daemon's markup by the caller. */
  body: string;
  /** key, label, key, label, … */
  actions: string[];
  /** Only these; absent = not sent. */
  hints: {
    urgency?: 0 | 1 | 2;
    category?: string;
    "desktop-entry"?: string;
    resident?: boolean;
    transient?: boolean;
  };
  /** -1 = the server's default, 0 = never. */
  expireTimeoutMs: number;
}

/** The Notify call's arguments, in order. */
export function notifyBody(request: NotifyRequest): DbusValue[] {
  return [
    request.appName,
    uint32(request.replacesId ?? 0),
    request.icon,
    request.summary,
    request.body,
    request.actions,
    hintEntries(request.hints),
    int32(request.expireTimeoutMs),
  ];
}

function hintEntries(hints: NotifyRequest["hints"]): DbusValue[] {
  const entries: [string, Variant][] = [];
  if (hints.urgency !== undefined)
    entries.push(["urgency", { signature: "y", value: hints.urgency }]);
  for (const key of ["category", "desktop-entry"] as const) {
    const value = hints[key];
    if (value !== undefined) entries.push([key, { signature: "s", value }]);
  }
  for (const key of ["resident", "transient"] as const) {
    const value = hints[key];
    if (value !== undefined) entries.push([key, { signature: "b", value }]);
  }
  return entries;
}

// A banner id: an unsigned 32-bit integer (anything else is 0, a new banner).
export function uint32(value: number): number {
  return Number.isInteger(value) && value >= 0 && value <= 0xffffffff ? value : 0;
}

// A timeout in ms within a signed 32-bit integer; -1 (the server's default) for anything not a number.
function int32(value: number): number {
  if (!Number.isFinite(value)) return -1;
  return Math.max(-1, Math.min(0x7fffffff, Math.trunc(value)));
}
