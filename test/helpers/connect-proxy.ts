import { connect, createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

export interface TestProxy {
  url: string;
  /** The CONNECT targets seen, e.g. "127.0.0.1:4567". */
  tunnels: string[];
}

// A tiny HTTP CONNECT proxy on 127.0.0.1:0; `blackHole` accepts and never answers.
export async function startConnectProxy(options: { blackHole?: boolean } = {}): Promise<TestProxy> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on("error", () => undefined);
    let head = "";
    const onData = (chunk: Buffer): void => {
      head += chunk.toString("latin1");
      const end = head.indexOf("\r\n\r\n");
      if (end === -1) return;
      client.off("data", onData);
      const target = /^CONNECT (\S+) HTTP/.exec(head)?.[1] ?? "";
      tunnels.push(target);
      if (options.blackHole) return;
      const [host, port] = target.split(":");
      const upstream = connect(Number(port), host ?? "127.0.0.1", () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.pipe(client).pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on("error", () => client.destroy());
    };
    client.on("data", onData);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, tunnels };
}

// A port on which nothing listens (bound, then closed).
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
