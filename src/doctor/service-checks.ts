// Doctor's look at the service (only with `service` in the config): is the key accepted, and may
// its user read analytics (Manager or Owner), which `watch --digest daily` needs.
import { deadline } from "../abort.js";
import type { ServiceConfig } from "../core/config.js";
import { toHookNotifyError } from "../errors.js";
import { redactUrl, scrub } from "../redact.js";
import { getAnalytics } from "../service/client.js";
import { callService } from "../service/http.js";
import { sessionPageSchema } from "../service/schemas.js";
import { fail, ok, warn, type CheckResult } from "../check-result.js";

const TIMEOUT_MS = 10_000;

// Two requests: a one-item session list (the key), yesterday's activity (the role).
export async function checkService(
  service: ServiceConfig,
  env: Readonly<Record<string, string | undefined>>,
  now: number,
  secrets: readonly string[],
): Promise<CheckResult[]> {
  const where = redactUrl(service.baseUrl);
  const timer = deadline(TIMEOUT_MS);
  const ctx = { service, env, signal: timer.signal };
  try {
    try {
      await callService(ctx, { path: "/api/v0/sessions", query: { limit: 1 } }, sessionPageSchema);
    } catch (error) {
      const known = toHookNotifyError(error);
      const fix =
        known.code === "CONFIG_INVALID"
          ? "Fix service.baseUrl as said."
          : known.code === "SERVICE_UNAUTHORIZED"
            ? "Set service.apiKey (e.g. FACTORY_API_KEY) to a valid API key from the web app's API key settings."
            : "Check service.baseUrl, the network and the proxy.";
      // blocks: doctor exits 1, so it can check the service setup in CI (the hooks' local
      // notifications still work; what the service part promises does not).
      return [
        fail("service key", `${where}: ${scrub(known.message, secrets)}`, fix, { blocks: true }),
      ];
    }
    const results = [ok("service key", `${where} accepts the API key`)];
    const yesterday = new Date(now - 86_400_000).toISOString().slice(0, 10);
    try {
      await getAnalytics(ctx, "activity", { startDate: yesterday, endDate: yesterday });
      results.push(
        ok("service role", "analytics allowed (Manager or Owner): watch --digest daily works"),
      );
    } catch (error) {
      const known = toHookNotifyError(error);
      results.push(
        known.code === "SERVICE_FORBIDDEN"
          ? warn(
              "service role",
              "analytics refused (403): the key's user is not a Manager or Owner",
              "watch --digest daily needs a Manager's or Owner's key; the rest of watch works",
            )
          : warn(
              "service role",
              scrub(known.message, secrets),
              "Try again later: hook-notify doctor",
            ),
      );
    }
    return results;
  } finally {
    timer.clear();
  }
}
