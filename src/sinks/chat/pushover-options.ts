// Pushover's options as validated: who gets a message and with which keys (the Apprise url, or
// user and token), where the API is, and which messages are emergencies.
import type { Notification } from "../../core/notification.js";
import type { AppriseForm } from "./service.js";
import { splitUrl } from "./url-option.js";

/** A `chat` entry with "service": "pushover", as validated (the url may be the Apprise form). */
export interface PushoverOptions {
  service: "pushover";
  url?: string | undefined;
  user?: string | undefined;
  token?: string | undefined;
  device?: string | undefined;
  apiUrl?: string | undefined;
  emergency?: boolean | undefined;
  retrySeconds?: number | undefined;
  expireSeconds?: number | undefined;
}

// Where Pushover's API lives; `apiUrl` points elsewhere only for tests and proxies.
export const PUSHOVER_API = "https://api.pushover.net";
// message ≤ 1024 characters, title ≤ 250 ("Limitations"); emergency retry ≥ 30 s, expire ≤ 10800 s.
export const PUSHOVER_LIMITS = { message: 1024, title: 250, minRetry: 30, maxExpire: 10_800 };
export const KEY = /^[A-Za-z0-9]{30}$/;

// Apprise `pover://USER_KEY@APP_TOKEN` (a device as `/DEVICE`).
export function parseApprise(value: string): Partial<PushoverOptions> | undefined {
  const url = splitUrl(value);
  if (!url?.userinfo || !KEY.test(url.userinfo) || !KEY.test(url.host)) return undefined;
  if (url.segments.length > 1) return undefined;
  const [device] = url.segments;
  return { user: url.userinfo, token: url.host, ...(device ? { device } : {}) };
}

export function target(options: PushoverOptions): { user: string; token: string; device?: string } {
  const fromUrl = options.url === undefined ? undefined : parseApprise(options.url);
  const device = options.device ?? fromUrl?.device;
  return {
    user: options.user ?? fromUrl?.user ?? "",
    token: options.token ?? fromUrl?.token ?? "",
    ...(device === undefined ? {} : { device }),
  };
}

export function apiOf(options: PushoverOptions): string {
  return (options.apiUrl ?? PUSHOVER_API).replace(/\/+$/, "");
}

export const APPRISE: AppriseForm<PushoverOptions> = {
  schemes: ["pover"],
  form: "pover://USER_KEY@APP_TOKEN",
  parse: parseApprise,
};

// A permission request waits on a person as much as a failure does.
function needsAcknowledgement(notification: Notification): boolean {
  const type = notification.raw["notification_type"];
  const asks = type === "permission_prompt" || /permission/i.test(notification.message ?? "");
  return notification.level === "failure" || (notification.level === "attention" && asks);
}

export function isEmergency(notification: Notification, options: PushoverOptions): boolean {
  return options.emergency !== false && needsAcknowledgement(notification);
}
