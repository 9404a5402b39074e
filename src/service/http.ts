// One request to the service: Bearer key, JSON in and out, undici with the env's proxies, a hard
// deadline, and every failure as a HookNotifyError with a SERVICE_* code and the key masked.
import type * as z from "../zod.js";
import { safeParse } from "../zod.js";
import type { ServiceConfig } from "../core/config.js";
import { HookNotifyError, type ErrorCode } from "../errors.js";
import { proxyOptions } from "../http/post.js";
import { parseRetryAfter } from "../http/retry-policy.js";
import { userAgent } from "../http/user-agent.js";
import { oneLine, stripControl } from "../message/text.js";
import { redactUrl, scrub, secretPartsOf } from "../redact.js";
import { errorBodySchema } from "./schemas.js";

/** What every call needs: where, the key, the environment (proxies) and when to give up. */
export interface ServiceContext {
  service: Pick<ServiceConfig, "baseUrl" | "apiKey">;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
}

export interface ServiceRequest {
  method?: "GET" | "POST" | "PATCH";
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

// Sends the request and returns the parsed, checked JSON body of a 2xx answer.
export async function callService<T>(
  ctx: ServiceContext,
  request: ServiceRequest,
  schema: z.ZodMiniType<T>,
): Promise<T> {
  checkBaseUrl(ctx.service.baseUrl);
  const url = buildUrl(ctx.service.baseUrl, request);
  const where = `${request.method ?? "GET"} ${request.path}`;
  const secrets = secretPartsOf(ctx.service.apiKey);
  const text = await send(ctx, url, request, where);
  const failed = text.status < 200 || text.status >= 300;
  let json: unknown;
  try {
    json = text.body === "" ? {} : JSON.parse(text.body);
  } catch (error) {
    // A proxy's HTML error page: the status is what matters, not the body.
    if (failed) throw statusError(text, undefined, where, secrets);
    throw serviceError("SERVICE_INVALID_RESPONSE", `${where}: the answer is not JSON.`, {
      cause: error,
      retryable: true,
    });
  }
  if (failed) throw statusError(text, json, where, secrets);
  const parsed = safeParse(schema, json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const path = first?.path.join(".") ?? "";
    throw serviceError(
      "SERVICE_INVALID_RESPONSE",
      `${where}: the answer does not have the documented shape (${path || "body"}: ${first?.message ?? "invalid"}).`,
      { retryable: false },
    );
  }
  return parsed.data;
}

// Loads the HTTP client ahead of a timed call, so a deadline measures the service, not the disk.
export async function loadTransport(): Promise<void> {
  await import("undici");
}

// One id as one path segment: refused when it is empty, a dot segment (`.`, `..`: URL resolution
// would send the request to another endpoint), starts with `-` (it would read as an option in a
// suggested command) or holds a `/`; otherwise percent-encoded.
export function idSegment(id: string, what = "id"): string {
  const problem = idProblem(id);
  if (problem)
    throw new HookNotifyError("USAGE", `${what} ${JSON.stringify(id)}: ${problem}.`, {
      retryable: false,
    });
  return encodeURIComponent(id);
}

// Why `id` cannot be a service id, or undefined when it can.
export function idProblem(id: string): string | undefined {
  if (id.trim() === "") return "an id is needed";
  if (id === "." || id === "..") return "not an id (a dot segment would reach another endpoint)";
  if (id.startsWith("-")) return "an id does not start with -";
  if (/[/\\]/.test(id) || /\p{Cc}/u.test(id)) return "an id has no /, \\ or control characters";
  return undefined;
}

// baseUrl is the part before /api: a value that already ends in /api/v0 (the obvious mistake)
// would send every request to /api/v0/api/v0/…, and the 404 would name a path never requested.
function checkBaseUrl(baseUrl: string): void {
  const path = baseUrl.replace(/[?#].*$/, "").replace(/\/+$/, "");
  const tail = /\/api(\/v[0-9]+(\/analytics)?)?$/i.exec(path);
  if (tail)
    throw new HookNotifyError(
      "CONFIG_INVALID",
      `service.baseUrl ends in ${tail[0]}: give the part before /api, e.g. "${redactUrl(path.slice(0, -tail[0].length) || path)}" (hook-notify adds /api/v0 and /api/v1 itself).`,
      { retryable: false, sink: "service" },
    );
}

function buildUrl(baseUrl: string, request: ServiceRequest): string {
  const url = new URL(request.path.replace(/^\//, ""), `${baseUrl.replace(/\/+$/, "")}/`);
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  return url.href;
}

async function send(
  ctx: ServiceContext,
  url: string,
  request: ServiceRequest,
  where: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const target = `${where} at ${redactUrl(ctx.service.baseUrl)}`;
  if (ctx.signal.aborted) throw timeoutError(target, ctx.signal.reason);
  const undici = await import("undici");
  const dispatcher = new undici.EnvHttpProxyAgent(proxyOptions(ctx.env));
  const destroy = (): void => {
    dispatcher.destroy().catch(() => undefined);
  };
  ctx.signal.addEventListener("abort", destroy, { once: true });
  try {
    const response = await undici.request(url, {
      method: request.method ?? "GET",
      headers: {
        authorization: `Bearer ${ctx.service.apiKey}`,
        accept: "application/json",
        "user-agent": userAgent(),
        ...(request.body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      signal: ctx.signal,
      dispatcher,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) throw tooLarge(where);
      chunks.push(chunk);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = String(value);
    }
    return { status: response.statusCode, headers, body: Buffer.concat(chunks).toString("utf8") };
  } catch (error) {
    if (error instanceof HookNotifyError) throw error;
    if (isAborted(ctx.signal)) throw timeoutError(target, error);
    const code = (error as { code?: unknown }).code;
    const why = typeof code === "string" ? code : error instanceof Error ? error.message : "";
    throw serviceError(
      "SERVICE_NETWORK",
      `could not reach the service (${target}${why ? `: ${why}` : ""}). Check service.baseUrl, the network or the proxy.`,
      { cause: error },
    );
  } finally {
    ctx.signal.removeEventListener("abort", destroy);
    destroy();
  }
}

// A function, so the type checker does not assume the earlier check still holds.
function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

function tooLarge(where: string): HookNotifyError {
  return serviceError(
    "SERVICE_INVALID_RESPONSE",
    `${where}: the answer is larger than 4 MiB, more than hook-notify reads. Ask for less (a smaller --limit or date range).`,
    { retryable: false },
  );
}

function timeoutError(target: string, cause: unknown): HookNotifyError {
  return serviceError("SERVICE_TIMEOUT", `no answer from the service (${target}) in time.`, {
    cause,
  });
}

// {title, detail, status, requestId} → a code, a sentence and the next step.
function statusError(
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

/** The shortest piece of a secret masked on its own in what the service says. */
const FRAGMENT = 8;

// Masks every run of FRAGMENT or more characters that also occurs in one of `secrets`: a server
// that echoes the key minus its last characters must not get the rest printed.
export function maskFragments(text: string, secrets: readonly string[]): string {
  const grams = new Set<string>();
  for (const secret of secrets)
    for (let i = 0; i + FRAGMENT <= secret.length; i++) grams.add(secret.slice(i, i + FRAGMENT));
  if (grams.size === 0) return text;
  const masked = new Array<boolean>(text.length).fill(false);
  for (let j = 0; j + FRAGMENT <= text.length; j++)
    if (grams.has(text.slice(j, j + FRAGMENT))) masked.fill(true, j, j + FRAGMENT);
  let out = "";
  for (let j = 0; j < text.length; j++) {
    if (!masked[j]) out += text.charAt(j);
    else if (j === 0 || !masked[j - 1]) out += "***";
  }
  return out;
}

// 1500 → "2 s", 90_000 → "1 min 30 s"
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${String(seconds)} s`;
  const rest = seconds % 60;
  return `${String(Math.floor(seconds / 60))} min${rest ? ` ${String(rest)} s` : ""}`;
}

function serviceError(
  code: ErrorCode,
  message: string,
  options: { cause?: unknown; retryable?: boolean; retryAfterMs?: number; status?: number },
): HookNotifyError {
  return new HookNotifyError(code, `service: ${message}`, { sink: "service", ...options });
}
