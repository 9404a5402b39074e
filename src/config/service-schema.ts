import * as z from "../zod.js";
import { once } from "../once.js";
import { DEFAULT_ENRICH_TIMEOUT_SECONDS, DEFAULT_INTERVAL_SECONDS } from "../core/defaults.js";
import { about } from "./schema-parts.js";

// The service key: its HTTP API, for session titles and `hook-notify watch`.
export const service = once(() =>
  z.strictObject({
    baseUrl: z
      .url({ protocol: /^https?$/ })
      .check(about("Where the service's API lives (the part before /api/v0 and /api/v1).")),
    apiKey: z
      .string()
      .check(
        z.minLength(1),
        z.meta({ secret: true }),
        about(
          'The API key (sent as "Authorization: Bearer …"). Write "${FACTORY_API_KEY}" so it stays in the environment. Secret: masked in every log line and message.',
        ),
      ),
    enrich: z.optional(
      z
        .boolean()
        .check(
          about(
            "Droid notifications sent by the background worker carry the session's title and token usage from the service.",
            true,
          ),
        ),
    ),
    enrichTimeoutSeconds: z.optional(
      z
        .number()
        .check(
          z.gt(0),
          z.lte(30),
          about(
            "The worker waits at most this long for the session; then the notification goes out without it.",
            DEFAULT_ENRICH_TIMEOUT_SECONDS,
          ),
        ),
    ),
    intervalSeconds: z.optional(
      z
        .number()
        .check(
          z.gte(10),
          z.lte(86_400),
          about(
            "hook-notify watch polls this often (plus up to 10 % jitter).",
            DEFAULT_INTERVAL_SECONDS,
          ),
        ),
    ),
    computers: z.optional(
      z
        .array(z.string().check(z.minLength(1)))
        .check(
          about(
            "hook-notify watch announces only sessions on these computers (ids, as `hook-notify computers list` shows them) instead of the whole organisation's. --computer overrides it.",
          ),
        ),
    ),
    hostId: z.optional(
      z
        .string()
        .check(
          z.regex(
            /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
            "a host id (UUID)",
          ),
          about(
            "hook-notify watch announces only sessions on the computers of this host. --host overrides it.",
          ),
        ),
    ),
    alerts: z.optional(
      z
        .strictObject({
          creditsPerDay: z.optional(
            z
              .number()
              .check(
                z.gt(0),
                about(
                  "Announce (UsageAlert) when the organisation used more credits than this in a UTC day.",
                ),
              ),
          ),
          creditsPerUserPerDay: z.optional(
            z
              .number()
              .check(
                z.gt(0),
                about(
                  "Announce (UsageAlert) when any one user used more credits than this in a UTC day.",
                ),
              ),
          ),
        })
        .check(
          about(
            "hook-notify watch checks yesterday's credits (analytics lags a day) once a day and announces each crossed threshold once. Needs a Manager or Owner key.",
          ),
        ),
    ),
  }),
);
