// The one HTTP client of hook-notify: a POST (or a GET: a receipt poll) through undici with env
// proxies and a hard deadline.
import { HookNotifyError } from "../errors.js";
import { redactUrl } from "../redact.js";
import { parseRetryAfter } from "./retry-policy.js";
import { toTransportError } from "./transport-error.js";

export interface HttpRequest {
  url: string;
  /** POST unless given (Matrix sends a message with PUT; a receipt poll is a GET, no body). */
  method?: "POST" | "PUT" | "GET";
  headers: Record<string, string>;
  /** Ignored for a GET. */
  body: string;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** What postRequest needs from its caller. */
export interface PostContext {
  signal: AbortSignal;
  env: Readonly<Record<string, string | undefined>>;
  sinkName: string;
}

const MAX_BODY_BYTES = 64 * 1024;
const SLOW_TIMER_MS = 10 * 60_000;

// Sends (POST unless told) and resolves for any status. undici loads here, never on the hook path (~100 ms), and
// its dispatcher is destroyed at the deadline: a black-hole proxy ignores the signal alone.
export async function postRequest(request: HttpRequest, ctx: PostContext): Promise<HttpResponse> {
  const target = redactUrl(request.url);
  if (ctx.signal.aborted) throw toTransportError(ctx.signal.reason, ctx.sinkName, target, true);
  const undici = await import("undici");
  const dispatcher = new undici.EnvHttpProxyAgent({
    ...proxyOptions(ctx.env),
    headersTimeout: SLOW_TIMER_MS,
    bodyTimeout: SLOW_TIMER_MS,
  });
  const destroy = (): void => {
    dispatcher.destroy().catch(() => undefined);
  };
  ctx.signal.addEventListener("abort", destroy, { once: true });
  try {
    const response = await undici.request(request.url, {
      method: request.method ?? "POST",
      headers: request.headers,
      body: request.method === "GET" ? null : request.body,
      signal: ctx.signal,
      dispatcher,
    });
    const text = await readLimited(response.body, MAX_BODY_BYTES);
    return { status: response.statusCode, headers: flattenHeaders(response.headers), text };
  } catch (error) {
    throw toTransportError(error, ctx.sinkName, target, ctx.signal.aborted);
  } finally {
    ctx.signal.removeEventListener("abort", destroy);
    destroy();
  }
}

// Proxy settings from the injected env (lower case wins, as curl and undici do); "" means none.
export function proxyOptions(env: PostContext["env"]): {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
} {
  return {
    httpProxy: env.http_proxy ?? env.HTTP_PROXY ?? "",
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? "",
    noProxy: env.no_proxy ?? env.NO_PROXY ?? "",
  };
}

// Non-2xx becomes SINK_HTTP_STATUS: retryable for 408/425/429/5xx; 3xx is never followed.
export function assertSuccess(
  response: HttpResponse,
  ctx: { sinkName: string; service: string },
): void {
  const { status } = response;
  if (status >= 200 && status < 300) return;
  const retryable = status === 408 || status === 425 || status === 429 || status >= 500;
  const retryAfterMs = parseRetryAfter(response.headers["retry-after"], Date.now());
  const snippet = redactText(response.text).replace(/\s+/g, " ").trim().slice(0, 200);
  const message =
    `${ctx.sinkName}: ${ctx.service} answered HTTP ${status}.` +
    (snippet ? ` Response: "${snippet}".` : "") +
    ` ${statusHint(status, response.headers.location)}`;
  throw new HookNotifyError("SINK_HTTP_STATUS", message.trim(), {
    sink: ctx.sinkName,
    retryable,
    status,
    service: ctx.service,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

// The next step for a person reading the status line.
function statusHint(status: number, location: string | undefined): string {
  if (status >= 300 && status < 400) {
    const where = location ? ` to ${redactUrl(location)}` : "";
    return `Redirects${where} are not followed: put the final URL in the config.`;
  }
  if (status === 401 || status === 403) return "Check the token or credentials in the config.";
  if (status === 404) return "The URL does not exist (a deleted webhook?): create a new one.";
  if (status === 410) return "The endpoint was retired: create a new one.";
  if (status === 413) return "The message is too large for this service.";
  if (status === 429) return "Rate limited: it will be retried later.";
  if (status >= 500) return "The service has trouble: it will be retried.";
  return "The request was rejected: check the sink's options.";
}

// Response bodies can echo URLs with tokens in them: keep only their origins.
function redactText(text: string): string {
  return text.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, (url) => redactUrl(url));
}

async function readLimited(body: AsyncIterable<Buffer> & { destroy(): unknown }, max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= max) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, max).toString("utf8");
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>) {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined)
      flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}
