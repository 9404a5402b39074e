// A local ntfy that implements the parts of ntfy's documented API that approve uses, on
// 127.0.0.1:0, recording everything: publish as JSON to the root (with `actions`), publish a plain
// body to /<topic>, the subscribe stream GET /<topic>/json (open event, `since=` all / Unix time /
// message id, `poll=1`), and access tokens (`Authorization: Bearer`, 403 without one).
// Docs: publish.md ("Publish as JSON", "Action buttons", "Access tokens"), subscribe/api.md.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

/** One stored message, as the subscribe stream returns it. */
export interface NtfyMessage {
  id: string;
  time: number;
  event: "message";
  topic: string;
  message: string;
  title?: string;
  priority?: number;
  tags?: string[];
  actions?: NtfyAction[];
  /** ntfy 2.16+: a message published with a sequence id already seen updates that one. */
  sequence_id?: string;
}

/** An `http` action as published (ntfy adds an id to each). */
export interface NtfyAction {
  id: string;
  action: string;
  label: string;
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  clear?: boolean;
}

export interface RecordedCall {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  status: number;
}

export interface FakeNtfy {
  /** The server root, e.g. http://127.0.0.1:4567 (no trailing slash). */
  url: string;
  calls: RecordedCall[];
  messages: NtfyMessage[];
  /**
   * normal; close: end each stream right after its open event; hang: never answer; trickle: the
   * open event, then one byte of a keepalive every 200 ms, forever; reset: the open event, then
   * the connection is torn down (a hang-up, not a clean end).
   */
  subscribeMode: "normal" | "close" | "hang" | "trickle" | "reset";
  /** normal; hang: never answer; trickle: HTTP 200, then one byte of the body every 200 ms. */
  publishMode: "normal" | "hang" | "trickle";
  waitForMessage(topic: string, count?: number, timeoutMs?: number): Promise<NtfyMessage>;
  /** Streams currently open on the topic. */
  listeners(topic: string): number;
  /** Ends every open stream on the topic, as a server restart or a proxy timeout would. */
  dropStreams(topic: string): void;
}

const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;

// Starts the server; with a token, every request must carry it.
export async function startFakeNtfy(options: { token?: string } = {}): Promise<FakeNtfy> {
  const streams = new Map<string, Set<ServerResponse>>();
  const waiters: (() => void)[] = [];
  const fake: FakeNtfy = {
    url: "",
    calls: [],
    messages: [],
    subscribeMode: "normal",
    publishMode: "normal",
    waitForMessage: async (topic, count = 1, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = fake.messages.filter((m) => m.topic === topic);
        if (found.length >= count) return found[count - 1]!;
        if (Date.now() > deadline) throw new Error(`no message ${count} on ${topic}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 100);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    listeners: (topic) => streams.get(topic)?.size ?? 0,
    dropStreams: (topic) => {
      for (const res of streams.get(topic) ?? []) res.end();
    },
  };
  const store = (message: NtfyMessage): void => {
    fake.messages.push(message);
    for (const res of streams.get(message.topic) ?? []) res.write(`${JSON.stringify(message)}\n`);
    waiters.splice(0).forEach((wake) => {
      wake();
    });
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const call: RecordedCall = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        status: 0,
      };
      fake.calls.push(call);
      const reply = (status: number, body: unknown): void => {
        call.status = status;
        res.writeHead(status, { "content-type": "application/json" });
        res.end(`${JSON.stringify(body)}\n`);
      };
      // ntfy's health answers anyone; its account answers a known token (doctor's probes).
      if (req.method === "GET" && req.url === "/v1/health") {
        reply(200, { healthy: true });
        return;
      }
      if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) {
        reply(403, { code: 40301, http: 403, error: "forbidden" });
        return;
      }
      if (req.method === "GET" && req.url === "/v1/account") {
        reply(200, { username: "phil", role: "user" });
        return;
      }
      const url = new URL(req.url ?? "/", "http://localhost");
      const path = url.pathname.split("/").filter(Boolean);
      if (req.method === "GET" && path.length === 2 && path[1] === "json" && TOPIC.test(path[0]!)) {
        call.status = 200;
        subscribe(fake, streams, path[0]!, url.searchParams, res);
        return;
      }
      if (req.method !== "POST" && req.method !== "PUT") {
        reply(404, { code: 40401, http: 404, error: "page not found" });
        return;
      }
      if (fake.publishMode === "hang") return;
      if (fake.publishMode === "trickle") {
        res.writeHead(200, { "content-type": "application/json" });
        trickle(res, `{"id":"${"x".repeat(10_000)}"}`);
        return;
      }
      const message = toMessage(path, call.body);
      if (typeof message === "string") {
        reply(400, { code: 40000, http: 400, error: message });
        return;
      }
      reply(200, message);
      store(message);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  });
  return fake;
}

// POST / with a JSON body (publish as JSON) or POST /<topic> with the message as the body.
function toMessage(path: string[], body: string): NtfyMessage | string {
  const base = { id: randomBytes(6).toString("base64url"), time: Math.floor(Date.now() / 1000) };
  if (path.length === 1 && TOPIC.test(path[0]!)) {
    return { ...base, event: "message", topic: path[0]!, message: body || "triggered" };
  }
  if (path.length !== 0) return "invalid topic";
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return "invalid request: request body must be message JSON";
  }
  if (typeof json.topic !== "string" || !TOPIC.test(json.topic)) return "invalid topic";
  const actions = Array.isArray(json.actions) ? (json.actions as Omit<NtfyAction, "id">[]) : [];
  if (actions.length > 3) return "too many actions";
  return {
    ...base,
    event: "message",
    topic: json.topic,
    message: typeof json.message === "string" && json.message !== "" ? json.message : "triggered",
    ...(typeof json.title === "string" ? { title: json.title } : {}),
    ...(typeof json.priority === "number" ? { priority: json.priority } : {}),
    ...(Array.isArray(json.tags) ? { tags: json.tags as string[] } : {}),
    ...(typeof json.sequence_id === "string" && TOPIC.test(json.sequence_id)
      ? { sequence_id: json.sequence_id }
      : {}),
    ...(actions.length > 0
      ? { actions: actions.map((a) => ({ id: randomBytes(5).toString("base64url"), ...a })) }
      : {}),
  };
}

// The JSON stream: open event, cached messages per since=, then live ones (poll=1: cached only).
function subscribe(
  fake: FakeNtfy,
  streams: Map<string, Set<ServerResponse>>,
  topic: string,
  params: URLSearchParams,
  res: ServerResponse,
): void {
  if (fake.subscribeMode === "hang") return;
  res.writeHead(200, { "content-type": "application/x-ndjson; charset=utf-8" });
  const open = { id: randomBytes(6).toString("base64url"), time: Math.floor(Date.now() / 1000) };
  res.write(`${JSON.stringify({ ...open, event: "open", topic })}\n`);
  for (const message of cached(fake.messages, topic, params.get("since"))) {
    res.write(`${JSON.stringify(message)}\n`);
  }
  if (fake.subscribeMode === "reset") {
    setTimeout(() => res.socket?.destroy(), 50);
    return;
  }
  if (fake.subscribeMode === "trickle") {
    trickle(res, `${JSON.stringify({ ...open, event: "keepalive", topic })}\n`.repeat(1_000));
    return;
  }
  if (fake.subscribeMode === "close" || params.get("poll") === "1") {
    res.end();
    return;
  }
  const set = streams.get(topic) ?? new Set<ServerResponse>();
  streams.set(topic, set);
  set.add(res);
  res.on("close", () => set.delete(res));
}

// Writes `text` one byte every 200 ms until the connection closes: never idle, never done.
function trickle(res: ServerResponse, text: string): void {
  let at = 0;
  const timer = setInterval(() => {
    if (at >= text.length || res.destroyed) {
      clearInterval(timer);
      return;
    }
    res.write(text.slice(at, ++at));
  }, 200);
  res.on("close", () => {
    clearInterval(timer);
  });
}

function cached(messages: NtfyMessage[], topic: string, since: string | null): NtfyMessage[] {
  const mine = messages.filter((m) => m.topic === topic);
  if (since === null || since === "none") return [];
  if (since === "all") return mine;
  if (/^\d+$/.test(since)) return mine.filter((m) => m.time >= Number(since));
  const index = mine.findIndex((m) => m.id === since);
  return index < 0 ? mine : mine.slice(index + 1);
}

// The phone: pressing a button does exactly the HTTP request its action describes.
export async function pressButton(message: NtfyMessage, label: string): Promise<number> {
  const action = message.actions?.find((a) => a.label === label);
  if (!action || action.action !== "http") throw new Error(`no http action "${label}"`);
  const response = await fetch(action.url, {
    method: action.method ?? "POST",
    headers: action.headers ?? {},
    body: action.body ?? "",
  });
  await response.text();
  return response.status;
}
