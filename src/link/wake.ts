// The worker's door: a Unix socket (a named pipe on Windows) that the worker listens on while it
// holds the lock. Connecting to it is the proof of life a pid cannot give: the kernel closes it
// when the process dies, zombie or not, and a reused pid has no such socket. A line sent through
// it wakes the worker: "wake" (look at the outbox now), "pause" (release the lock for a `flush`,
// then take it back: PROTOCOL.md) or "yield" (finish, release the lock, exit). The worker answers
// "ok" when it will look at the outbox after the message, "no" when it is leaving.
import { unlinkSync } from "node:fs";
import type { Server } from "node:net";
import { join } from "node:path";
import type { OutboxPaths } from "../outbox/paths.js";

/** What a worker can be asked through its socket. */
export type WakeMessage = "wake" | "yield" | "pause";

/** How long a connection may take before the worker is assumed alive but busy. */
const PROBE_TIMEOUT_MS = 1_500;
/** sun_path holds 104 bytes on macOS, 108 on Linux: a longer path gets no socket. */
const MAX_SOCKET_PATH = 100;

const net = () => process.getBuiltinModule("node:net");

// Where a worker with this token listens; undefined when the outbox path is too long for a socket
// (the lock's heartbeat and pid are then the only signs of life, as before).
export function socketPathFor(
  paths: OutboxPaths,
  token: string,
  platform: NodeJS.Platform,
): string | undefined {
  if (platform === "win32") return `\\\\.\\pipe\\hook-notify-${token}`;
  const path = join(paths.root, `worker.${token}.sock`);
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH ? path : undefined;
}

// Listens on `path`; each message received calls `onMessage`, whose result is the answer: true
// ("ok") promises a look at the outbox after this message. Undefined if listening failed.
export async function listenForWake(
  path: string,
  onMessage: (message: WakeMessage, pid?: number) => boolean,
): Promise<Server | undefined> {
  const server = net().createServer((socket) => {
    socket.setEncoding("utf8");
    socket.on("error", () => undefined);
    socket.once("data", (text: string) => {
      // "pause <pid>": the flush that asks, so the worker knows when it is over.
      const pid = Number(/^pause (\d+)/.exec(text)?.[1] ?? Number.NaN);
      const accepted = onMessage(
        text.includes("yield") ? "yield" : text.includes("pause") ? "pause" : "wake",
        Number.isInteger(pid) ? pid : undefined,
      );
      socket.end(accepted ? "ok\n" : "no\n");
    });
  });
  // The path carries this worker's own token: a file there is a dead predecessor's socket.
  // Synchronous: there is hardly ever one, and fs/promises is not loaded for it (#41).
  if (!path.startsWith("\\\\")) {
    try {
      unlinkSync(path);
    } catch {
      // none there
    }
  }
  return new Promise((resolve) => {
    server.once("error", () => {
      resolve(undefined);
    });
    server.listen(path, () => {
      // Only its owner may knock (the outbox folder is 0700 too); a named pipe has no mode.
      if (!path.startsWith("\\\\")) {
        try {
          process.getBuiltinModule("node:fs").chmodSync(path, 0o600);
        } catch {
          // gone already: the next look finds no worker and starts one
        }
      }
      server.removeAllListeners("error");
      server.on("error", () => undefined);
      resolve(server);
    });
  });
}

// Sends one message to the worker listening on `path`. True when it is alive: the connection was
// accepted, or is still pending after PROBE_TIMEOUT_MS (a loaded machine, not a dead worker).
// False when nobody listens (ECONNREFUSED, ENOENT): the worker is gone, whatever its pid says.
export function sendWake(path: string, message: WakeMessage, pid?: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net().connect(path);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(true);
    }, PROBE_TIMEOUT_MS);
    socket.on("connect", () => {
      clearTimeout(timer);
      // The answer is read and dropped, so the socket closes; unref'd, it never holds a process.
      socket.resume().unref();
      socket.end(`${message}${pid === undefined ? "" : ` ${String(pid)}`}\n`);
      resolve(true);
    });
    socket.on("error", () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(false);
    });
  });
}
