// Desktop notifications over the session bus with no external program: one connection (the
// worker keeps one open, sharedNotificationBus), so a banner is one Notify message. The Desktop
// Notifications Specification's methods and signals; errors as HookNotifyError, one line each.
import { HookNotifyError } from "../errors.js";
import { inertText } from "../shown-text.js";
import { sessionBusSockets } from "./address.js";
import { connectBus, type BusConnection, type CallOptions } from "./connection.js";
import { NOTIFICATIONS, NotificationSignals, type BusSignal } from "./notification-signals.js";
import { notifyBody, NOTIFY_SIGNATURE, uint32, type NotifyRequest } from "./notify-request.js";
import { inhibitedReader } from "./inhibited.js";
import type { DbusValue } from "./signature.js";

export type { BusSignal } from "./notification-signals.js";
export type { NotifyRequest } from "./notify-request.js";

export interface NotificationBus {
  /** The daemon's id for the new banner (> 0). */
  notify(request: NotifyRequest, signal?: AbortSignal): Promise<number>;
  close(id: number, signal?: AbortSignal): Promise<void>;
  capabilities(): Promise<string[]>;
  serverInformation(): Promise<{
    name: string;
    vendor: string;
    version: string;
    specVersion: string;
  }>;
  /** The daemon's Inhibited property (its Do Not Disturb; KDE Plasma's daemon and others have
   *  it). Rejects with the D-Bus error (`dbusError` UnknownProperty, InvalidArgs, UnknownMethod)
   *  where the daemon has none, SINK_FAILED when it is not a boolean. */
  inhibited(signal?: AbortSignal): Promise<boolean>;
  /** Subscribes (AddMatch) once to the daemon's signals; returns an unsubscribe. `onEnd` (an
   *  addition to the agreed interface) runs if the connection ends while subscribed. */
  onSignal(
    handler: (signal: BusSignal) => void,
    onEnd?: (error: HookNotifyError) => void,
  ): () => void;
  /** The unique name of this connection (":1.42"). */
  readonly uniqueName: string;
  /** Closes the socket; pending calls reject. Idempotent. */
  end(): void;
}

const OPEN_TIMEOUT_MS = 3_000;
const CALL_TIMEOUT_MS = 10_000;
// Node 20 pads an abstract socket's name to the whole sockaddr_un, so it never finds the bus's.
const ABSTRACT_SOCKETS = Number(process.versions.node.split(".")[0]) >= 22;
const connections = new WeakMap<NotificationBus, BusConnection>();

/** What a connection asks behind its Hello (connection.ts), in the same write: the daemon's
 *  capabilities (every banner reads them) and, where Do Not Disturb is read from the daemon
 *  (presence/dnd.ts), its Inhibited property. A cold worker's first banner then waits for no
 *  round trip after Hello's (issue #41). */
export interface AskAhead {
  inhibited?: boolean | undefined;
}

/** Connects to the session bus `env` names (every address in order), authenticates, sends Hello;
 *  `ahead`: what to ask behind Hello (AskAhead). */
export async function openNotificationBus(
  env: Record<string, string | undefined>,
  options: { signal?: AbortSignal; timeoutMs?: number; ahead?: AskAhead } = {},
): Promise<NotificationBus> {
  const { sockets, skipped } = sessionBusSockets(env);
  const uid = process.getuid?.();
  if (uid === undefined) throw noBus(env, ["this system has no unix user id"]);
  const problems = [...skipped];
  const timeoutMs = options.timeoutMs ?? OPEN_TIMEOUT_MS;
  for (const socket of sockets) {
    if (socket.path.startsWith("\0") && !ABSTRACT_SOCKETS) {
      problems.push(
        `${socket.address}: Node ${process.versions.node} cannot reach an abstract socket (Node 22 and later can)`,
      );
      continue;
    }
    try {
      let bus: NotificationBus | undefined;
      const { ahead } = options;
      const connection = await connectBus(
        socket.path,
        uid,
        { signal: options.signal, timeoutMs },
        ahead && ((opened) => (bus = notificationBus(opened, ahead))),
      );
      return bus ?? notificationBus(connection);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      problems.push(`${socket.address}: ${(error as Error).message}`);
    }
  }
  throw noBus(env, problems);
}

function noBus(env: Record<string, string | undefined>, problems: string[]): HookNotifyError {
  const where = env.DBUS_SESSION_BUS_ADDRESS ?? "unset";
  const text = `no D-Bus session bus here (DBUS_SESSION_BUS_ADDRESS=${where}): ${problems.join("; ")}; run inside the desktop session or set DBUS_SESSION_BUS_ADDRESS to its bus (often unix:path=$XDG_RUNTIME_DIR/bus)`;
  return new HookNotifyError("SINK_UNAVAILABLE", inertText(text, "line"));
}

function notificationBus(connection: BusConnection, ahead?: AskAhead): NotificationBus {
  const signals = new NotificationSignals(connection);
  let capabilities: Promise<string[]> | undefined;
  const call = async (
    member: string,
    signature = "",
    body: DbusValue[] = [],
    options: CallOptions = {},
  ) => {
    const reply = await connection
      .call(
        { ...NOTIFICATIONS, member, signature, body },
        { timeoutMs: CALL_TIMEOUT_MS, ...options },
      )
      .catch((error: unknown) => {
        throw daemonError(error);
      });
    signals.owner = reply.sender ?? signals.owner;
    return reply.body;
  };
  const inhibited = inhibitedReader(connection, CALL_TIMEOUT_MS, daemonError);
  const bus: NotificationBus = {
    // Set once Hello's reply came (a bus made behind Hello exists before it).
    get uniqueName() {
      return connection.uniqueName;
    },
    notify: async (request, signal) => {
      const [id] = await call("Notify", NOTIFY_SIGNATURE, notifyBody(request), { signal });
      if (typeof id !== "number" || id === 0)
        throw new HookNotifyError(
          "SINK_FAILED",
          "the notification daemon answered Notify without an id",
        );
      return id;
    },
    close: async (id, signal) => {
      await call("CloseNotification", "u", [uint32(id)], { signal });
    },
    capabilities: () => {
      capabilities ??= call("GetCapabilities").then(([list]) =>
        Array.isArray(list) ? list.map(String) : [],
      );
      capabilities.catch(() => (capabilities = undefined));
      return capabilities;
    },
    serverInformation: async () => {
      const [name, vendor, version, specVersion] = (await call("GetServerInformation")).map(String);
      return {
        name: name ?? "",
        vendor: vendor ?? "",
        version: version ?? "",
        specVersion: specVersion ?? "",
      };
    },
    // The answer asked behind Hello serves the first read, if it comes soon; any other asks.
    inhibited: (signal) => inhibited.read(signal),
    onSignal: (handler, onEnd) => signals.subscribe(handler, onEnd),
    end: () => {
      connection.end();
    },
  };
  connections.set(bus, connection);
  if (ahead) {
    void bus.capabilities().catch(() => undefined);
    if (ahead.inhibited === true) inhibited.askAhead();
  }
  return bus;
}

// Nobody owns the name: no daemon runs (or the bus could not start one, which may pass).
function daemonError(error: unknown): unknown {
  if (!(error instanceof HookNotifyError) || error.dbusError === undefined) return error;
  const name = error.dbusError;
  const options = { cause: error, dbusError: name };
  if (
    name === "org.freedesktop.DBus.Error.ServiceUnknown" ||
    name === "org.freedesktop.DBus.Error.NameHasNoOwner"
  ) {
    const text =
      "no notification daemon on the D-Bus session bus (nobody owns org.freedesktop.Notifications): start the desktop's notification service (GNOME Shell, KDE Plasma, dunst, mako, xfce4-notifyd)";
    return new HookNotifyError("SINK_UNAVAILABLE", text, { ...options, retryable: false });
  }
  if (name.startsWith("org.freedesktop.DBus.Error.Spawn.")) {
    const text = `the D-Bus session bus could not start the notification daemon (${error.message}): check its service with \`systemctl --user status\``;
    return new HookNotifyError("SINK_UNAVAILABLE", text, { ...options, retryable: true });
  }
  return error;
}

let shared: { address: string; bus: Promise<NotificationBus> } | undefined;

/** The worker's one connection, opened on first use and kept; a connection that closed or failed
 *  to open is opened again on the next use (once per call, never in a loop). Opened, it asks the
 *  daemon's capabilities behind Hello, and what `ahead` names. */
export async function sharedNotificationBus(
  env: Record<string, string | undefined>,
  ahead: AskAhead = {},
): Promise<NotificationBus> {
  const address = `${env.DBUS_SESSION_BUS_ADDRESS ?? ""}|${env.XDG_RUNTIME_DIR ?? ""}`;
  const kept = shared?.address === address ? await shared.bus.catch(() => undefined) : undefined;
  if (kept && connections.get(kept)?.closed === false) return kept;
  kept?.end();
  if (shared && shared.address !== address)
    void shared.bus.then(
      (old) => {
        old.end();
      },
      () => undefined,
    );
  const bus = openNotificationBus(env, { ahead });
  shared = { address, bus };
  return bus;
}

/** Runs `use` on the worker's kept connection (`worker`), or on one opened for it and ended
 *  after it (also when `use` fails). */
export async function withBus<T>(
  env: Record<string, string | undefined>,
  options: {
    worker?: boolean | undefined;
    signal?: AbortSignal | undefined;
    timeoutMs?: number;
    /** The worker's kept connection, if this call opens it: what it asks behind Hello. */
    ahead?: AskAhead | undefined;
  },
  use: (bus: NotificationBus) => Promise<T>,
): Promise<T> {
  const { worker, signal, timeoutMs } = options;
  const bus = worker
    ? await sharedNotificationBus(env, options.ahead)
    : await openNotificationBus(env, {
        ...(signal ? { signal } : {}),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
  try {
    return await use(bus);
  } finally {
    if (!worker) bus.end();
  }
}
