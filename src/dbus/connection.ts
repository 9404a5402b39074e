// One connection to a D-Bus bus over a unix socket: authentication and Hello in one write, then
// method calls matched to their replies by serial, signals handed to listeners, calls to us
// answered (Peer.Ping; anything else UnknownMethod). The socket holds the process open only while
// a call waits. When it closes, every waiting call rejects.
import { Buffer } from "node:buffer";
import { createConnection, type Socket } from "node:net";
import { HookNotifyError } from "../errors.js";
import { encodeMessage, MessageType, NO_REPLY_EXPECTED, type Message } from "./message.js";
import { MessageStream } from "./message-stream.js";
import { PendingCalls } from "./pending-calls.js";
import { authRequest, readAuthReply } from "./sasl.js";
import { textOf, type DbusValue } from "./signature.js";

export const BUS = { destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus" };

/** A message to send: a method call, or (with `type`) a signal or reply. */
export interface Outgoing {
  type?: number;
  destination?: string | undefined;
  path?: string;
  interface?: string;
  member?: string;
  errorName?: string;
  replySerial?: number;
  signature?: string;
  body?: DbusValue[];
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

const DEFAULT_TIMEOUT_MS = 25_000; // libdbus's default for a method call

export class BusConnection {
  uniqueName = "";
  private serial = 0;
  private authenticated = false;
  private received: Buffer = Buffer.alloc(0);
  private readonly stream = new MessageStream();
  private readonly pending = new PendingCalls();
  private readonly listeners = new Set<(message: Message) => void>();
  private readonly endListeners = new Set<(error: HookNotifyError) => void>();
  private ended: HookNotifyError | undefined;
  private readonly socket: Socket;

  constructor(socket: Socket) {
    this.socket = socket;
    socket.on("data", (chunk: Buffer) => {
      this.receive(chunk);
    });
    socket.on("error", (error) => {
      this.finish(error);
    });
    socket.on("close", () => {
      this.finish(undefined);
    });
  }

  /** True once the socket closed or failed: every call now rejects. */
  get closed(): boolean {
    return this.ended !== undefined;
  }

  /** Calls a method and resolves with its return (an error reply rejects, naming it). */
  call(message: Outgoing, options: CallOptions = {}, prefix?: Buffer): Promise<Message> {
    if (this.ended) return Promise.reject(this.ended);
    let serial: number;
    try {
      serial = this.write(message, 0, prefix);
    } catch (error) {
      // A value that does not fit its signature: a fault of the caller, not of the bus.
      const text = `D-Bus ${message.member ?? "call"}: ${(error as Error).message}`;
      return Promise.reject(new HookNotifyError("INTERNAL", text, { cause: error }));
    }
    this.socket.ref();
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return this.pending.wait(
      serial,
      message.member ?? "call",
      { signal: options.signal, timeoutMs },
      () => {
        if (this.pending.size === 0) this.socket.unref();
      },
    );
  }

  /** Sends a message that wants no reply (a signal, a reply, or a call with no reply expected). */
  send(message: Outgoing): void {
    if (!this.ended) this.write(message, NO_REPLY_EXPECTED);
  }

  /** Every signal that reaches this connection; returns the unsubscribe. */
  onSignal(listener: (message: Message) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called once when the connection ends (at once if it has). */
  onEnd(listener: (error: HookNotifyError) => void): void {
    if (this.ended) listener(this.ended);
    else this.endListeners.add(listener);
  }

  /** Closes the socket; waiting calls reject. Idempotent. */
  end(): void {
    this.finish(
      new HookNotifyError("SINK_FAILED", "the D-Bus connection was closed by hook-notify"),
    );
    this.socket.destroy();
  }

  private write(message: Outgoing, flags: number, prefix?: Buffer): number {
    this.serial = this.serial >= 0xffffffff ? 1 : this.serial + 1;
    const bytes = encodeMessage({
      ...message,
      type: message.type ?? MessageType.call,
      flags,
      serial: this.serial,
      signature: message.signature ?? "",
      body: message.body ?? [],
    });
    this.socket.write(prefix ? Buffer.concat([prefix, bytes]) : bytes);
    return this.serial;
  }

  private receive(chunk: Buffer): void {
    let bytes = chunk;
    if (!this.authenticated) {
      const reply = readAuthReply(Buffer.concat([this.received, chunk]));
      if (reply.state === "more") {
        this.received = Buffer.concat([this.received, chunk]);
        return;
      }
      if (reply.state === "refused") {
        this.fail(`refused to authenticate us (${reply.line}): is it another user's bus?`);
        return;
      }
      this.authenticated = true;
      this.received = Buffer.alloc(0);
      bytes = reply.rest;
    }
    let messages: Message[];
    try {
      messages = this.stream.push(bytes);
    } catch (error) {
      this.fail(`sent a malformed message (${(error as Error).message})`);
      return;
    }
    for (const message of messages) this.dispatch(message);
  }

  private dispatch(message: Message): void {
    if (message.type === MessageType.return || message.type === MessageType.error) {
      this.pending.settle(message);
    } else if (message.type === MessageType.signal) {
      for (const listener of [...this.listeners]) listener(message);
    } else if (message.type === MessageType.call && (message.flags & NO_REPLY_EXPECTED) === 0) {
      this.answer(message);
    }
  }

  // Ping is answered, as every D-Bus peer must; any other call to us has no method.
  private answer(call: Message): void {
    const ping = call.interface === "org.freedesktop.DBus.Peer" && call.member === "Ping";
    const reply = { destination: call.sender, replySerial: call.serial };
    if (ping) this.send({ ...reply, type: MessageType.return });
    else {
      const errorName = "org.freedesktop.DBus.Error.UnknownMethod";
      this.send({
        ...reply,
        type: MessageType.error,
        errorName,
        signature: "s",
        body: ["no such method here"],
      });
    }
  }

  private fail(what: string): void {
    this.finish(new HookNotifyError("SINK_FAILED", `the D-Bus session bus ${what}`));
    this.socket.destroy();
  }

  private finish(cause: Error | undefined): void {
    if (this.ended) return;
    this.ended =
      cause instanceof HookNotifyError
        ? cause
        : new HookNotifyError(
            "SINK_FAILED",
            `the D-Bus connection closed${cause ? ` (${cause.message})` : ""}`,
            {
              cause,
            },
          );
    this.pending.failAll(this.ended);
    for (const listener of this.endListeners) listener(this.ended);
    this.endListeners.clear();
  }
}

/** Connects to the bus at `path` ("\0name" for an abstract socket), authenticates as `uid`, sends
 *  Hello; resolves once the bus gave the connection its unique name. `behindHello` may call on the
 *  connection at once: the calls are written right behind Hello, before its reply (the bus reads
 *  a connection's messages in order, Hello first), so their answers come with Hello's; they
 *  reject with the connection if it fails. */
export async function connectBus(
  path: string,
  uid: number,
  options: CallOptions,
  behindHello?: (connection: BusConnection) => void,
): Promise<BusConnection> {
  const connection = new BusConnection(createConnection({ path }));
  const hello = { ...BUS, interface: "org.freedesktop.DBus", member: "Hello" };
  try {
    const replied = connection.call(hello, options, authRequest(uid));
    behindHello?.(connection);
    const reply = await replied;
    connection.uniqueName = textOf(reply.body[0]);
    return connection;
  } catch (error) {
    connection.end();
    throw error;
  }
}
