// Pushover's options: who gets a message and with which keys (the Apprise url, or user and
// token), and how an emergency repeats.
import * as z from "../../zod.js";
import type { AppriseForm } from "./service.js";
import { splitUrl, urlOption } from "./url-option.js";

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

// Who gets it and with which keys: the Apprise url, or user and token (and a device).
function keysShape() {
  const secret = (description: string) => z.meta({ secret: true, description });
  return {
    url: z.optional(
      urlOption(
        APPRISE,
        undefined,
        "Apprise form pover://USER_KEY@APP_TOKEN, instead of user and token.",
      ),
    ),
    user: z.optional(
      z
        .string()
        .check(z.regex(KEY, "expected a 30-character key"), secret("User or group key. Secret.")),
    ),
    token: z.optional(
      z
        .string()
        .check(
          z.regex(KEY, "expected a 30-character token"),
          secret("Application API token. Secret."),
        ),
    ),
    device: z.optional(
      z.string().check(z.regex(/^[\w-]{1,25}$/), z.describe("Only this device of the user.")),
    ),
    apiUrl: z.optional(
      z
        .url({ protocol: /^https?$/ })
        .check(z.meta({ description: "API server (for tests).", default: PUSHOVER_API })),
    ),
  };
}

// Options that change how the message looks and rings.
function emergencyShape() {
  return {
    emergency: z.optional(
      z
        .boolean()
        .check(
          z.describe(
            "false: failures and permission requests are high priority (1), not emergency (2).",
          ),
        ),
    ),
    retrySeconds: z.optional(
      z.int().check(
        z.gte(PUSHOVER_LIMITS.minRetry),
        z.lte(10_800),
        z.meta({
          description: "Emergency: repeat every this many seconds until acknowledged.",
          default: 60,
        }),
      ),
    ),
    expireSeconds: z.optional(
      z.int().check(
        z.gte(30),
        z.lte(PUSHOVER_LIMITS.maxExpire),
        z.meta({
          description: "Emergency: stop repeating after this many seconds.",
          default: 3600,
        }),
      ),
    ),
  };
}

// Its options besides `service`, in the order the docs list them.
export function shape() {
  return { ...keysShape(), ...emergencyShape() };
}
