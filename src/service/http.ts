// One request to the service: Bearer key, JSON in and out, undici with the env's proxies, a hard
// deadline, and every failure as a HookNotifyError with a SERVICE_* code and the key masked.
import type * as z from "../zod.js";
import { safeParse } from "../zod.js";
import type { ServiceConfig } from "../core/config.js";
import { HookNotifyError } from "../errors.js";
import { proxyOptions } from "../http/post.js";
import { userAgent } from "../http/user-agent.js";
import { redactUrl, secretPartsOf } from "../redact.js";
import { serviceError, timeoutError, tooLarge } from "./service-errors.js";
import { statusError } from "./service-status.js";

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
