import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  receivedAt: number;
}

/** What to do with the n-th request (0-based). */
export type Reply =
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  | { hang: true }
  | { reset: true };

export interface TestHttpServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Replace the script; requests past its end get the last reply (default 200 "ok"). */
  script(replies: Reply[]): void;
  /** Resolves once at least `count` requests have arrived (or rejects after timeoutMs). */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

// A real node:http server on 127.0.0.1:0 that records every request and answers from a script.
export async function startHttpServer(replies: Reply[] = []): Promise<TestHttpServer> {
  let script = replies;
  const requests: RecordedRequest[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const index = requests.length;
      requests.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        receivedAt: Date.now(),
      });
      waiters.splice(0).forEach((wake) => {
        wake();
      });
      answer(res, script[Math.min(index, script.length - 1)] ?? { status: 200, body: "ok" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  };
  onTestFinished(close);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    script: (next) => {
      script = next;
    },
    waitForRequests: (count, timeoutMs = 10_000) => waitFor(requests, waiters, count, timeoutMs),
    close,
  };
}

function answer(res: ServerResponse, reply: Reply): void {
  if ("hang" in reply) return;
  if ("reset" in reply) {
    res.socket?.destroy();
    return;
  }
  const send = (): void => {
    res.writeHead(reply.status, reply.headers ?? {});
    res.end(reply.body ?? "");
  };
  if (reply.delayMs) setTimeout(send, reply.delayMs);
  else send();
}

async function waitFor(
  requests: RecordedRequest[],
  waiters: (() => void)[],
  count: number,
  timeoutMs: number,
): Promise<RecordedRequest[]> {
  const deadline = Date.now() + timeoutMs;
  while (requests.length < count) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`expected ${count} requests, got ${requests.length}`);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.min(left, 200));
      waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  return requests;
}
