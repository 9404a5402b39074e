// Usage limits, the pure part: which events are one (a StopFailure for a rate limit, Claude Code's
// quota_auto_resume_* notifications), when the limit resets when the event says so, and how that
// reads in the person's local time ("resets at 14:00").
import type { HookEvent } from "../core/hook-event.js";
import type { Notification } from "../core/notification.js";
import { DEFAULT_LIMIT_WINDOW_SECONDS, MAX_LIMIT_WINDOW_SECONDS } from "../core/defaults.js";
import { fnv1a64 } from "../fnv1a.js";

/** The StopFailure error types that are a usage or rate limit: Claude Code's and Qwen Code's
 * `rate_limit`; the adapters of the other clients map theirs onto it (OpenCode's HTTP 429). */
const LIMIT_ERRORS = new Set(["rate_limit"]);

export function isRateLimitStop(event: Pick<HookEvent, "name" | "error">): boolean {
  return event.name === "StopFailure" && event.error !== undefined && LIMIT_ERRORS.has(event.error);
}

/** Keys a payload may carry the reset in (epoch seconds or ms, or an ISO date). */
const RESET_KEYS = ["resets_at", "resetsAt", "reset_at", "resetAt"] as const;

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

// Claude Code's wording (its rate-limit message): "You've hit your 5-hour limit · resets 3pm
// (Europe/Berlin)", "resets 3:30pm (UTC)", "resets Aug 8, 3pm (Europe/Berlin)", "resets Aug 8,
// 2027, 3pm (…)"; a 24-hour "resets 14:00" too. The zone, when named, is an IANA name.
const RESETS_TEXT =
  /\bresets\s+(?:at\s+|on\s+)?(?:([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(?:(\d{4}),?\s+)?)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?(?:\s*\(([A-Za-z][A-Za-z0-9_+\-/]*)\))?/i;

// When the limit resets (ms since the epoch, to the next whole minute: two events of one window
// name the same moment), when the event says: a field of its own, a Retry-After, or the client's
// text. Undefined when it does not say or the time cannot be read.
export function resetTimeOf(event: HookEvent, now: number): number | undefined {
  const at = statedReset(event, now);
  return at === undefined ? undefined : Math.ceil(at / 60_000) * 60_000;
}

function statedReset(event: HookEvent, now: number): number | undefined {
  for (const key of RESET_KEYS) {
    const at = epochOf(event.raw[key]);
    if (at !== undefined) return at;
  }
  // HTTP's Retry-After in seconds (OpenCode's adapter passes a 429's on).
  const after = event.retryAfterSeconds;
  if (after !== undefined && after < 8 * 86_400) return now + after * 1000;
  for (const text of [event.lastAssistantMessage, event.message, event.errorDetails]) {
    const at = text === undefined ? undefined : resetFromText(text, now);
    if (at !== undefined) return at;
  }
  return undefined;
}

function epochOf(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value) && value > 0) {
    return value < 1e11 ? value * 1000 : value; // seconds, else already ms
  }
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = /^\d+(\.\d+)?$/.test(value.trim()) ? epochOf(Number(value)) : Date.parse(value);
    return parsed !== undefined && Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

// "resets 3pm (Europe/Berlin)" → the next such moment after `now` (a time without a date is the
// next one to come; a date without a year, this year's or next).
export function resetFromText(text: string, now: number): number | undefined {
  const match = RESETS_TEXT.exec(text.slice(0, 4096));
  if (!match) return undefined;
  const [, monthName, dayText, yearText, hourText, minuteText, meridiem, zone] = match;
  let hour = Number(hourText);
  const minute = minuteText === undefined ? 0 : Number(minuteText);
  if (meridiem) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (meridiem.toLowerCase() === "pm" ? 12 : 0);
  } else if (minuteText === undefined || hour > 23) return undefined; // "resets 3" says nothing
  if (minute > 59) return undefined;
  const today = wallDate(now, zone);
  if (!today) return undefined;
  if (monthName === undefined) {
    const at = wallToEpoch({ ...today, hour, minute }, zone);
    if (at === undefined) return undefined;
    return at < now - 60_000
      ? wallToEpoch({ ...today, day: today.day + 1, hour, minute }, zone)
      : at;
  }
  const month = MONTHS.indexOf(monthName.toLowerCase());
  const day = Number(dayText);
  if (month < 0 || day < 1 || day > 31) return undefined;
  const year = yearText === undefined ? today.year : Number(yearText);
  const at = wallToEpoch({ year, month, day, hour, minute }, zone);
  if (at === undefined || yearText !== undefined || at >= now - 86_400_000) return at;
  return wallToEpoch({ year: year + 1, month, day, hour, minute }, zone);
}

interface Wall {
  year: number;
  /** 0-11 */
  month: number;
  day: number;
  hour: number;
  minute: number;
}

// The calendar date of `at` in the zone (the machine's own without one).
function wallDate(at: number, zone: string | undefined): Wall | undefined {
  if (zone === undefined) {
    const local = new Date(at);
    const [year, month, day] = [local.getFullYear(), local.getMonth(), local.getDate()];
    return { year, month, day, hour: 0, minute: 0 };
  }
  const parts = zoneParts(at, zone);
  return parts && { ...parts, hour: 0, minute: 0 };
}

// A wall-clock time in the zone → ms since the epoch. Two rounds settle a change of offset (DST).
function wallToEpoch(wall: Wall, zone: string | undefined): number | undefined {
  if (zone === undefined) {
    return new Date(wall.year, wall.month, wall.day, wall.hour, wall.minute).getTime();
  }
  const asUtc = Date.UTC(wall.year, wall.month, wall.day, wall.hour, wall.minute);
  let at = asUtc;
  for (let round = 0; round < 2; round++) {
    const seen = zoneParts(at, zone);
    if (!seen) return undefined;
    const seenAsUtc = Date.UTC(seen.year, seen.month, seen.day, seen.hour, seen.minute);
    at += asUtc - seenAsUtc;
  }
  return at;
}

function zoneParts(at: number, zone: string): Wall | undefined {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
    }).formatToParts(new Date(at));
  } catch {
    return undefined; // not a zone this Node knows
  }
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const wall = {
    year: get("year"),
    month: get("month") - 1,
    day: get("day"),
    hour: get("hour") % 24,
    minute: get("minute"),
  };
  return Object.values(wall).every(Number.isFinite) ? wall : undefined;
}

const DAY_MS = 86_400_000;
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTH_NAMES = [
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sep",
  "Oct",
  "Nov",
  "Dec",
];

// "resets at 14:00", "resets tomorrow at 09:00", "resets Tue at 14:00", "resets on 8 Aug at
// 14:00": in the local time of the machine the person sits at (where hook-notify runs).
export function describeReset(at: number, now: number): string {
  const when = new Date(at);
  const clock = `${pad(when.getHours())}:${pad(when.getMinutes())}`;
  const days = Math.round((startOfDay(at) - startOfDay(now)) / DAY_MS);
  if (days <= 0) return `resets at ${clock}`;
  if (days === 1) return `resets tomorrow at ${clock}`;
  if (days < 7) return `resets ${WEEKDAYS[when.getDay()] ?? ""} at ${clock}`;
  return `resets on ${String(when.getDate())} ${MONTH_NAMES[when.getMonth()] ?? ""} at ${clock}`;
}

function startOfDay(at: number): number {
  const day = new Date(at);
  return new Date(day.getFullYear(), day.getMonth(), day.getDate()).getTime();
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

/** The seen marker (pipeline/seen-markers.ts) that lets one usage limit through per window. */
export interface LimitWindow {
  marker: string;
  seconds: number;
  reason: string;
}

// One notification per session, kind (the StopFailure, or the notification_type) and reset
// window. With a known reset the reset time is part of the key, so the window lasts until then
// (a later limit resets later: a new key); without one, DEFAULT_LIMIT_WINDOW_SECONDS. The
// marker's name ends with its window, as every seen marker's does (the sweep reads it).
export function limitWindow(
  event: { name: string; notificationType?: string | undefined },
  notification: Pick<Notification, "client" | "sessionId" | "resetsAt">,
): LimitWindow {
  const known = notification.resetsAt !== undefined;
  const seconds = known ? MAX_LIMIT_WINDOW_SECONDS : DEFAULT_LIMIT_WINDOW_SECONDS;
  const kind =
    event.name === "Notification" ? `Notification:${event.notificationType ?? ""}` : event.name;
  const key = [
    notification.client ?? "",
    notification.sessionId ?? "",
    kind,
    notification.resetsAt ?? "",
  ];
  const reason = known
    ? `this usage limit was notified already; it lasts until ${notification.resetsAt ?? ""}`
    : `a usage limit for this session was notified less than ${String(seconds / 3600)} h ago (the event did not say when it resets)`;
  return { marker: `lim-${fnv1a64(key.join("\0"))}-${String(seconds)}`, seconds, reason };
}
