// The authentication that opens a D-Bus connection (the specification's "Authentication
// Protocol"): a NUL byte, AUTH EXTERNAL with the uid (its decimal digits, hex-encoded: uid 1000
// is "31303030"), then BEGIN, sent together; the server answers "OK <guid>" and the binary
// messages follow. NEGOTIATE_UNIX_FD is not asked: no file descriptors pass.
import { Buffer } from "node:buffer";

/** What the client sends first; the Hello call may follow in the same write. */
export function authRequest(uid: number): Buffer {
  const hex = Buffer.from(String(uid), "ascii").toString("hex");
  return Buffer.from(`\0AUTH EXTERNAL ${hex}\r\nBEGIN\r\n`, "ascii");
}

export type AuthReply =
  { state: "more" } | { state: "ok"; rest: Buffer } | { state: "refused"; line: string };

/** Reads the server's first line from what arrived so far; `rest` is the bytes after it. */
export function readAuthReply(received: Buffer): AuthReply {
  const end = received.indexOf("\r\n");
  if (end < 0) {
    if (received.length > 4096) return { state: "refused", line: "an endless line" };
    return { state: "more" };
  }
  const line = received.toString("latin1", 0, end);
  if (/^OK [0-9a-f]{32}$/.test(line)) return { state: "ok", rest: received.subarray(end + 2) };
  return { state: "refused", line: line.replace(/[^ -~]/g, "?").slice(0, 200) };
}
