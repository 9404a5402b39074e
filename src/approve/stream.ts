// ntfy's subscribe API as a JSON stream: GET <root><topic>/json, one JSON object per line
// (open, keepalive, message, poll_request); docs: subscribe/api.md "Subscribe as JSON stream".
import { HookNotifyError } from "../errors.js";
import { proxyOptions } from "../http/post.js";
import { toTransportError } from "../http/transport-error.js";

/** One line of the stream; only `message` events carry an answer. */
export interface NtfyEvent {
  id: string;
  time: number;
  event: string;
  topic: string;
  message?: string;
}

/** What opening the stream needs. */
export interface StreamOptions {
  root: string;
  topic: string;
  token?: string | undefined;
  /** `since=` value: a Unix time in seconds or a message id (cached messages from then on). */
  since?: string | undefined;
  /** poll=1: return the cached messages and end (doctor's reachability check). */
  poll?: boolean | undefined;
  signal: AbortSignal;
  env: Readonly<Record<string, string | undefined>>;
  sinkName: string;
}

const MAX_LINE = 64 * 1024;

// Resolves once the server accepted the subscription (HTTP 200); the events follow as they come.
export async function openStream(options: StreamOptions): Promise<AsyncIterable<NtfyEvent>> {
  const query = new URLSearchParams();
  if (options.poll) query.set("poll", "1");
  if (options.since) query.set("since", options.since);
  const search = query.size > 0 ? `?${query.toString()}` : "";
  const url = `${options.root}${options.topic}/json${search}`;
  const shown = `${options.root}…/json`;
  const undici = await import("undici");
  const dispatcher = new undici.EnvHttpProxyAgent({
    ...proxyOptions(options.env),
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  const destroy = (): void => {
    dispatcher.destroy().catch(() => undefined);
  };
  options.signal.addEventListener("abort", destroy, { once: true });
  const headers: Record<string, string> = { accept: "application/x-ndjson" };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let response: Awaited<ReturnType<typeof undici.request>>;
  try {
    response = await undici.request(url, {
      method: "GET",
      headers,
      signal: options.signal,
      dispatcher,
    });
  } catch (error) {
    destroy();
    throw toTransportError(error, options.sinkName, shown, options.signal.aborted);
  }
  // A destroyed body reports "aborted" as an error event: with no listener, that would crash.
  response.body.on("error", () => undefined);
  if (response.statusCode !== 200) {
    response.body.destroy();
    destroy();
    const auth = response.statusCode === 401 || response.statusCode === 403;
    throw new HookNotifyError(
      auth ? "SINK_AUTH" : "SINK_HTTP_STATUS",
      `${options.sinkName}: ntfy answered HTTP ${response.statusCode} to subscribing to the reply topic.${auth ? " Check the sink's token: it must be allowed to read the reply topic." : ""}`,
      { sink: options.sinkName, status: response.statusCode, service: "ntfy" },
    );
  }
  return readEvents(response.body, destroy);
}

async function* readEvents(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  destroy: () => void,
): AsyncGenerator<NtfyEvent> {
  let pending = "";
  try {
    for await (const chunk of body) {
      pending += chunk.toString("utf8");
      let newline = pending.indexOf("\n");
      while (newline >= 0) {
        const event = parseEvent(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        if (event) yield event;
        newline = pending.indexOf("\n");
      }
      if (pending.length > MAX_LINE) pending = "";
    }
  } catch {
    // A broken or aborted stream simply ends; the caller decides what that means.
  } finally {
    body.destroy();
    destroy();
  }
}

function parseEvent(line: string): NtfyEvent | undefined {
  if (line.trim() === "") return undefined;
  try {
    const value = JSON.parse(line) as Record<string, unknown>;
    const { id, time, event, topic, message } = value;
    if (typeof id !== "string" || typeof event !== "string" || typeof topic !== "string") {
      return undefined;
    }
    return {
      id,
      time: typeof time === "number" ? time : 0,
      event,
      topic,
      ...(typeof message === "string" ? { message } : {}),
    };
  } catch {
    return undefined;
  }
}
