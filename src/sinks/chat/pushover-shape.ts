// Pushover's options as the config schema describes them: the keys and how an emergency repeats.
import * as z from "../../zod.js";
import { APPRISE, KEY, PUSHOVER_API, PUSHOVER_LIMITS } from "./pushover-options.js";
import { urlOption } from "./url-option.js";

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
