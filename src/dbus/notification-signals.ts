// The notification daemon's signals (ActionInvoked, NotificationClosed, ActivationToken) as this
// connection receives them: GNOME Shell and dunst send them only to the banner's sender (this
// connection, when it sent the Notify), mako and others to everyone (a match rule subscribes).
// Only the current owner of org.freedesktop.Notifications counts: it is learned from Notify
// replies, GetNameOwner, and NameOwnerChanged. A signal reaches the handlers after the code that
// awaited the Notify before it ran.
import { HookNotifyError } from "../errors.js";
import { BUS, type BusConnection } from "./connection.js";
import type { Message } from "./message.js";
import { textOf } from "./signature.js";

export const NOTIFICATIONS = {
  destination: "org.freedesktop.Notifications",
  path: "/org/freedesktop/Notifications",
  interface: "org.freedesktop.Notifications",
};

export interface BusSignal {
  member: "ActionInvoked" | "NotificationClosed" | "ActivationToken";
  id: number;
  actionKey?: string;
  /** 1 expired, 2 dismissed, 3 closed by a call, 4 undefined. */
  reason?: number;
  token?: string;
  /** The unique name that sent it. */
  sender: string;
}

type OnEnd = (error: HookNotifyError) => void;

const DAEMON_RULE = `type='signal',sender='${NOTIFICATIONS.destination}',interface='${NOTIFICATIONS.interface}',path='${NOTIFICATIONS.path}'`;
const OWNER_RULE = `type='signal',sender='${BUS.destination}',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='${NOTIFICATIONS.destination}'`;

/** The signal `message` carries, when it is one of the daemon's (pure). */
export function toBusSignal(message: Message): BusSignal | undefined {
  if (message.interface !== NOTIFICATIONS.interface || message.sender === undefined)
    return undefined;
  const [id, second] = message.body;
  if (typeof id !== "number") return undefined;
  const sender = message.sender;
  if (message.member === "ActionInvoked" && message.signature === "us") {
    return { member: "ActionInvoked", id, actionKey: textOf(second), sender };
  }
  if (message.member === "NotificationClosed" && message.signature === "uu") {
    return { member: "NotificationClosed", id, reason: Number(second), sender };
  }
  if (message.member === "ActivationToken" && message.signature === "us") {
    return { member: "ActivationToken", id, token: textOf(second), sender };
  }
  return undefined;
}

export class NotificationSignals {
  /** The unique name that owns org.freedesktop.Notifications, as far as this connection knows. */
  owner: string | undefined;
  /** Each handler, with what to call if the connection ends while it is subscribed. */
  private readonly handlers = new Map<(signal: BusSignal) => void, OnEnd | undefined>();
  private readonly connection: BusConnection;

  constructor(connection: BusConnection) {
    this.connection = connection;
    connection.onSignal((message) => {
      this.receive(message);
    });
    connection.onEnd((error) => {
      const ends = [...this.handlers.values()];
      this.handlers.clear();
      for (const onEnd of ends) onEnd?.(error);
    });
  }

  /** Adds a handler; the first one subscribes (AddMatch). Returns the unsubscribe. `onEnd` runs
   *  if the connection ends while the handler is subscribed: no further signal will come. */
  subscribe(handler: (signal: BusSignal) => void, onEnd?: OnEnd): () => void {
    if (this.connection.closed) {
      onEnd?.(new HookNotifyError("SINK_FAILED", "the D-Bus connection had closed"));
      return () => undefined;
    }
    if (this.handlers.size === 0) this.matchRules("AddMatch");
    this.handlers.set(handler, onEnd);
    return () => {
      if (this.handlers.delete(handler) && this.handlers.size === 0) this.matchRules("RemoveMatch");
    };
  }

  private matchRules(member: "AddMatch" | "RemoveMatch"): void {
    const call = { ...BUS, interface: "org.freedesktop.DBus", member, signature: "s" };
    const ignore = (): void => undefined; // a connection that ended already rejected everything
    for (const rule of [DAEMON_RULE, OWNER_RULE])
      this.connection.call({ ...call, body: [rule] }).catch(ignore);
    if (member === "RemoveMatch" || this.owner !== undefined) return;
    const ask = { ...call, member: "GetNameOwner", body: [NOTIFICATIONS.destination] };
    this.connection.call(ask).then((reply) => {
      this.owner ??= textOf(reply.body[0]);
    }, ignore);
  }

  private receive(message: Message): void {
    if (message.member === "NameOwnerChanged" && message.sender === BUS.destination) {
      const [name, , owner] = message.body;
      if (name === NOTIFICATIONS.destination) this.owner = textOf(owner) || undefined;
      return;
    }
    const signal = toBusSignal(message);
    if (!signal || this.handlers.size === 0) return;
    // On a later turn: a Notify's reply and its banner's first signal may come in one chunk, and
    // the caller learns the id (and this.owner the daemon's name) from the reply first.
    setImmediate(() => {
      if (signal.sender !== this.owner) return;
      for (const handler of [...this.handlers.keys()]) handler(signal);
    });
  }
}
