// A service's answer that is not 2xx as a HookNotifyError: its code, the sentence, the next step
// (which key, which id), the service's own words with the key masked, and a 429's wait.
import { safeParse } from "../zod.js";
import type { HookNotifyError } from "../errors.js";
import { parseRetryAfter } from "../http/retry-policy.js";
import { oneLine, stripControl } from "../message/text.js";
import { scrub } from "../redact.js";
import { errorBodySchema } from "./schemas.js";
import { describeWait, maskFragments, serviceError } from "./service-errors.js";

// {title, detail, status, requestId} → a code, a sentence and the next step.
export function statusError(
  response: { status: number; headers: Record<string, string> },
  json: unknown,
  where: string,
  secrets: readonly string[],
): HookNotifyError {
  const body = safeParse(errorBodySchema, json);
  const info = body.success ? body.data : {};
  const said = [info.title, info.detail].filter(Boolean).join(": ").slice(0, 300);
  const id = info.requestId ? ` (request ${info.requestId})` : "";
  const notJson = json === undefined ? " with a page that is not JSON (a proxy or gateway?)" : "";
  const shown = maskFragments(scrub(said, secrets), secrets);
  const head = `${where}: the service answered ${String(response.status)}${notJson}${said ? ` "${oneLine(stripControl(shown))}"` : ""}${id}.`;
  const { status } = response;
  if (status === 401)
    return serviceError(
      "SERVICE_UNAUTHORIZED",
      `${head} The API key is missing or invalid: check service.apiKey (e.g. FACTORY_API_KEY).`,
      { retryable: false, status },
    );
  if (status === 403)
    return serviceError("SERVICE_FORBIDDEN", `${head} ${forbiddenAdvice(where)}`, {
      retryable: false,
      status,
    });
  if (status === 400)
    return serviceError("SERVICE_BAD_REQUEST", `${head} The request was rejected.`, {
      retryable: false,
      status,
    });
  if (status === 404)
    return serviceError("SERVICE_NOT_FOUND", `${head}${notFoundAdvice(where)}`, {
      retryable: false,
      status,
    });
  if (status === 429) return rateLimited(head, response.headers);
  return serviceError("SERVICE_HTTP_STATUS", head, {
    retryable: status >= 500,
    status,
  });
}

// A 429 that says how long the service asks to wait (Retry-After), and carries it for callers.
function rateLimited(head: string, headers: Record<string, string>): HookNotifyError {
  const retryAfterMs = parseRetryAfter(headers["retry-after"], Date.now());
  const wait =
    retryAfterMs === undefined
      ? "it did not say how long to wait (no Retry-After)"
      : `it asks to wait ${describeWait(retryAfterMs)} (Retry-After)`;
  return serviceError("SERVICE_RATE_LIMITED", `${head} Rate limited: ${wait}.`, {
    retryable: true,
    status: 429,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

function notFoundAdvice(where: string): string {
  return /\/api\/v0\/(sessions|computers)\/[^/]/.test(where)
    ? " Not found: check the id (it must be one of this organisation's)."
    : " Not found.";
}

// Analytics is documented as Manager or Owner only; the roles of v0 are not documented.
function forbiddenAdvice(where: string): string {
  return where.includes("/api/v1/analytics/")
    ? "Analytics needs a key of a Manager or Owner of the organisation."
    : "This key may not use this endpoint (which roles may is not documented): try a key of an organisation admin, or check the id belongs to your organisation.";
}
