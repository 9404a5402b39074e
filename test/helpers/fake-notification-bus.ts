// A D-Bus "session bus" in the test's own node process that also owns
// org.freedesktop.Notifications: a unix socket server speaking the wire protocol with src/dbus's
// marshalling (SASL EXTERNAL accepted, Hello, AddMatch/RemoveMatch/RequestName/GetNameOwner,
// BecomeMonitor (for the worker's dbus-monitor),
// Notify/CloseNotification/GetCapabilities/GetServerInformation, the Inhibited property, signals to the banner's sender).
// For tests that do not need python-dbusmock; test/dbus/fake-notification-bus.test.ts checks it
// against our client.
import { Buffer } from "node:buffer";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { encodeMessage, MessageType, type Message } from "../../src/dbus/message.js";
import { MessageStream } from "../../src/dbus/message-stream.js";
import type { DbusValue, Variant } from "../../src/dbus/signature.js";
import type { NotifyCall } from "./notification-daemon.js";

export interface FakeNotificationBus {
  env: { DBUS_SESSION_BUS_ADDRESS: string };
  calls(): NotifyCall[];
  waitForCalls(count: number, timeoutMs?: number): Promise<NotifyCall[]>;
  closes(): number[];
  /** How many times the daemon's Inhibited property was read (Properties.Get). */
  inhibitedReads(): number;
  /** Sets the daemon's Inhibited property (undefined: the daemon has none). */
  setInhibited(on: boolean | undefined): void;
  /** Emits ActionInvoked to the banner's sender. */
  invokeAction(id: number, key: string): void;
  /** Emits NotificationClosed to the banner's sender. */
  closeNotification(id: number, reason: number): void;
  stop(): Promise<void>;
}

export interface FakeBusOptions {
  /** Every Notify answers this D-Bus error name instead of an id. */
  failWith?: string;
  /** Every Notify answers after this many ms (a list: the first Notify after the first, …; those
   * past its end at once). */
  delayMs?: number | readonly number[];
  /** Nobody owns org.freedesktop.Notifications (calls get ServiceUnknown). */
  noDaemon?: boolean;
  capabilities?: string[];
  /** The daemon's Inhibited property (Do Not Disturb, as KDE's daemon has it); none if unset. */
  inhibited?: boolean;
}

const BUS_NAME = "org.freedesktop.DBus";
const NAME = "org.freedesktop.Notifications";
const DAEMON = ":1.0"; // the daemon's unique name; clients get :1.1, :1.2, …
type Reply = { signature?: string; body?: DbusValue[]; errorName?: string };

export async function fakeNotificationBus(
  options: FakeBusOptions = {},
): Promise<FakeNotificationBus> {
  const dir = mkdtempSync(join(tmpdir(), "hook-notify-fake-bus-"));
  const path = join(dir, "bus");
  const notified: NotifyCall[] = [];
  const closed: number[] = [];
  const owners = new Map<number, Peer>(); // banner id → the connection that sent it
  const waiters = new Set<() => void>();
  const peers = new Set<Peer>();
  const monitors = new Set<Peer>(); // dbus-monitor's connections (BecomeMonitor)
  let clients = 0;
  let notifies = 0;
  let inhibited = options.inhibited;
  let inhibitedReads = 0;

  const daemon = (peer: Peer, call: Message): Reply | Promise<Reply> => {
    if (options.noDaemon)
      return {
        errorName: "org.freedesktop.DBus.Error.ServiceUnknown",
        body: [`The name ${NAME} was not provided by any .service files`],
      };
    if (call.member === "Notify") return notify(peer, call);
    if (call.member === "CloseNotification") {
      const id = call.body[0] as number;
      closed.push(id);
      setImmediate(() => {
        if (owners.has(id)) emit(id, "NotificationClosed", "uu", [id, 3]);
      });
      return {};
    }
    if (call.member === "GetCapabilities")
      return {
        signature: "as",
        body: [options.capabilities ?? ["actions", "body", "body-markup"]],
      };
    if (call.interface === "org.freedesktop.DBus.Properties" && call.member === "Get") {
      if (call.body[1] !== "Inhibited" || inhibited === undefined)
        return {
          errorName: "org.freedesktop.DBus.Error.UnknownProperty",
          body: [`no property ${JSON.stringify(call.body[1])}`],
        };
      inhibitedReads += 1;
      return { signature: "v", body: [{ signature: "b", value: inhibited }] };
    }
    if (call.member === "GetServerInformation")
      return { signature: "ssss", body: ["hook-notify-fake", "hook-notify", "1.0", "1.2"] };
    return {
      errorName: "org.freedesktop.DBus.Error.UnknownMethod",
      body: [`no method ${call.member ?? ""}`],
    };
  };

  const notify = async (peer: Peer, call: Message): Promise<Reply> => {
    const delay =
      typeof options.delayMs === "number" ? options.delayMs : options.delayMs?.[notifies++];
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    if (options.failWith)
      return { errorName: options.failWith, body: ["the fake daemon was told to fail"] };
    const [appName, , icon, summary, body, actions, hints, expireTimeout] = call.body;
    const urgency = (hints as [string, Variant][]).find(([key]) => key === "urgency")?.[1].value;
    notified.push({
      appName: appName as string,
      summary: summary as string,
      body: body as string,
      urgency: typeof urgency === "number" ? urgency : null,
      expireTimeout: expireTimeout as number,
      icon: icon as string,
      actions: actions as string[],
    });
    const id = notified.length;
    owners.set(id, peer);
    for (const wake of [...waiters]) wake();
    return { signature: "u", body: [id] };
  };

  const bus = (peer: Peer, call: Message): Reply => {
    if (call.member === "Hello") return { signature: "s", body: [peer.name] };
    if (call.member === "AddMatch" || call.member === "RemoveMatch") return {};
    if (call.member === "BecomeMonitor") {
      // As dbus-daemon: the monitor loses its names (NameLost, dbus-monitor's "ready" mark), then
      // sees the daemon's signals to anyone (emit below).
      monitors.add(peer);
      setImmediate(() => {
        peer.send({
          type: MessageType.signal,
          sender: BUS_NAME,
          destination: peer.name,
          path: "/org/freedesktop/DBus",
          interface: BUS_NAME,
          member: "NameLost",
          signature: "s",
          body: [peer.name],
        });
      });
      return {};
    }
    if (call.member === "RequestName") return { signature: "u", body: [1] };
    if (call.member === "GetNameOwner" && call.body[0] === NAME && !options.noDaemon)
      return { signature: "s", body: [DAEMON] };
    if (call.member === "GetNameOwner")
      return { errorName: "org.freedesktop.DBus.Error.NameHasNoOwner", body: ["no owner"] };
    return {
      errorName: "org.freedesktop.DBus.Error.UnknownMethod",
      body: [`no method ${call.member ?? ""}`],
    };
  };

  const emit = (id: number, member: string, signature: string, body: DbusValue[]): void => {
    const peer = owners.get(id);
    if (!peer) throw new Error(`the fake notification bus showed no banner ${id}`);
    const signal = {
      type: MessageType.signal,
      sender: DAEMON,
      destination: peer.name,
      path: "/org/freedesktop/Notifications",
      interface: NAME,
      member,
      signature,
      body,
    };
    // Monitors (dbus-monitor) see it too, as dbus-daemon shows them every message.
    for (const to of [peer, ...monitors]) to.send(signal);
  };

  const server = createServer((socket) => {
    clients += 1;
    const peer: Peer = new Peer(socket, `:1.${clients}`, async (call) => {
      const answer: Reply = call.destination === NAME ? await daemon(peer, call) : bus(peer, call);
      return { ...answer, sender: call.destination === NAME ? DAEMON : BUS_NAME };
    });
    peers.add(peer);
    socket.on("close", () => {
      peers.delete(peer);
      monitors.delete(peer);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, resolve);
  });

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= new Promise<void>((resolve) => {
      for (const peer of peers) peer.socket.destroy();
      server.close(() => {
        rmSync(dir, { recursive: true, force: true });
        resolve();
      });
    }));
  try {
    onTestFinished(stop);
  } catch {
    // Started outside a test (beforeAll): the caller stops it.
  }

  const waitForCalls = (count: number, timeoutMs = 5_000): Promise<NotifyCall[]> =>
    new Promise((resolve) => {
      const done = (): void => {
        if (notified.length < count && timer) return;
        clearTimeout(timer);
        waiters.delete(done);
        resolve([...notified]);
      };
      let timer: NodeJS.Timeout | undefined = setTimeout(() => {
        timer = undefined;
        done();
      }, timeoutMs);
      waiters.add(done);
      done();
    });

  return {
    env: { DBUS_SESSION_BUS_ADDRESS: `unix:path=${escapeAddressValue(path)}` },
    calls: () => [...notified],
    waitForCalls,
    closes: () => [...closed],
    inhibitedReads: () => inhibitedReads,
    setInhibited: (on) => {
      inhibited = on;
    },
    invokeAction: (id, key) => {
      emit(id, "ActionInvoked", "us", [id, key]);
    },
    closeNotification: (id, reason) => {
      emit(id, "NotificationClosed", "uu", [id, reason]);
    },
    stop,
  };
}

// One client connection: SASL first, then messages; each method call answered by `handle`.
class Peer {
  readonly socket: Socket;
  readonly name: string;
  private serial = 0;
  private authenticated = false;
  private text = "";
  private readonly stream = new MessageStream();

  constructor(
    socket: Socket,
    name: string,
    handle: (call: Message) => Promise<Reply & { sender: string }>,
  ) {
    this.socket = socket;
    this.name = name;
    socket.on("error", () => undefined);
    socket.on("data", (chunk: Buffer) => {
      const rest = this.authenticated ? chunk : this.authenticate(chunk);
      if (!rest) return;
      for (const call of this.stream.push(rest)) {
        if (call.type !== MessageType.call) continue;
        void handle(call).then(({ errorName, signature = "", body = [], sender }) => {
          const type = errorName ? MessageType.error : MessageType.return;
          this.send({
            type,
            sender,
            destination: this.name,
            replySerial: call.serial,
            errorName,
            signature: errorName ? "s" : signature,
            body,
          });
        });
      }
    });
  }

  send(message: Omit<Message, "serial" | "flags">): void {
    this.serial += 1;
    if (!this.socket.destroyed)
      this.socket.write(encodeMessage({ ...message, flags: 0, serial: this.serial }));
  }

  // The SASL lines (after the leading NUL); returns the bytes after BEGIN, if it came.
  private authenticate(chunk: Buffer): Buffer | undefined {
    this.text += chunk.toString("latin1");
    for (let end = this.text.indexOf("\r\n"); end >= 0; end = this.text.indexOf("\r\n")) {
      const line = this.text.slice(0, end).replace(/^\0/, "");
      this.text = this.text.slice(end + 2);
      if (line === "BEGIN") {
        this.authenticated = true;
        return Buffer.from(this.text, "latin1");
      }
      if (/^AUTH EXTERNAL [0-9a-f]+$/.test(line))
        this.socket.write(`OK ${"0123456789abcdef".repeat(2)}\r\n`);
      else this.socket.write(line.startsWith("AUTH") ? "REJECTED EXTERNAL\r\n" : "ERROR\r\n");
    }
    return undefined;
  }
}

// A D-Bus address value: bytes outside [-0-9A-Za-z_/.\\*] are %-escaped.
function escapeAddressValue(value: string): string {
  return [...Buffer.from(value, "utf8")]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return /[-0-9A-Za-z_/.\\*]/.test(char) ? char : `%${byte.toString(16).padStart(2, "0")}`;
    })
    .join("");
}
