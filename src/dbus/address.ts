// Where the session bus listens (the specification's "Server Addresses"): DBUS_SESSION_BUS_ADDRESS
// holds addresses separated by ";", each "transport:key=value,…" with %-escaped bytes in values;
// a client tries them in order. Unset, the bus is the `$XDG_RUNTIME_DIR/bus` socket, as libdbus
// and sd-bus look for it. Only unix sockets are supported (path=, abstract=, runtime=yes).
import { Buffer } from "node:buffer";

export interface BusSocket {
  /** The socket path for node:net; "\0name" for a Linux abstract socket. */
  path: string;
  /** The address as the person wrote it (or "$XDG_RUNTIME_DIR/bus"), for messages. */
  address: string;
}

export interface BusAddresses {
  sockets: BusSocket[];
  /** The addresses that could not be used, each with why. */
  skipped: string[];
}

/** The sockets to try, in order, for the session bus named by `env`. */
export function sessionBusSockets(env: Record<string, string | undefined>): BusAddresses {
  const variable = env.DBUS_SESSION_BUS_ADDRESS;
  if (variable === undefined || variable.trim() === "") {
    const runtime = env.XDG_RUNTIME_DIR;
    if (!runtime)
      return { sockets: [], skipped: ["DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are unset"] };
    return { sockets: [{ path: `${runtime}/bus`, address: "$XDG_RUNTIME_DIR/bus" }], skipped: [] };
  }
  const result: BusAddresses = { sockets: [], skipped: [] };
  for (const address of variable.split(";")) {
    if (address.trim() === "") continue;
    const parsed = parseAddress(address, env);
    if (typeof parsed === "string") result.skipped.push(`${address}: ${parsed}`);
    else result.sockets.push(parsed);
  }
  return result;
}

// One address → its socket, or why it cannot be used.
function parseAddress(
  address: string,
  env: Record<string, string | undefined>,
): BusSocket | string {
  const colon = address.indexOf(":");
  if (colon < 0) return "no transport (expected unix:path=…)";
  const transport = address.slice(0, colon);
  if (transport !== "unix") return `the ${transport} transport is not supported (only unix)`;
  const keys = new Map<string, string>();
  for (const pair of address.slice(colon + 1).split(",")) {
    const equals = pair.indexOf("=");
    if (equals <= 0) return `"${pair}" is not key=value`;
    const value = unescapeValue(pair.slice(equals + 1));
    if (value === undefined) return `a bad %-escape in "${pair}"`;
    keys.set(pair.slice(0, equals), value);
  }
  const path = keys.get("path");
  if (path) return { path, address };
  const abstract = keys.get("abstract");
  if (abstract) return { path: `\0${abstract}`, address };
  if (keys.get("runtime") === "yes" && env.XDG_RUNTIME_DIR) {
    return { path: `${env.XDG_RUNTIME_DIR}/bus`, address };
  }
  return "no path= or abstract= (dir= and tmpdir= are for servers)";
}

/** Decodes a value's %XX escapes (bytes, then UTF-8); undefined when an escape is malformed. */
export function unescapeValue(value: string): string | undefined {
  if (!value.includes("%")) return value;
  const bytes: number[] = [];
  for (let at = 0; at < value.length; at += 1) {
    if (value[at] !== "%") {
      bytes.push(...Buffer.from(value[at] ?? "", "utf8"));
      continue;
    }
    const hex = value.slice(at + 1, at + 3);
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) return undefined;
    bytes.push(Number.parseInt(hex, 16));
    at += 2;
  }
  return Buffer.from(bytes).toString("utf8");
}
