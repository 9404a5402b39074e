// One D-Bus message (the specification's "Message Format"): a 12-byte fixed header (byte order,
// type, flags, version 1, body length, serial), the header fields as an array of (code, variant),
// padding to 8, then the body. Written little-endian; read in whichever order it came.
import { Buffer } from "node:buffer";
import { WireWriter } from "./marshal.js";
import type { DbusValue, Variant } from "./signature.js";
import { WireReader } from "./unmarshal.js";

export const MessageType = { call: 1, return: 2, error: 3, signal: 4 } as const;
/** Flags: the caller wants no reply; the bus must not start a service for it. */
export const NO_REPLY_EXPECTED = 0x1;

/** The largest message the specification allows (128 MiB). */
const MAX_MESSAGE = 128 * 1024 * 1024;

export interface Message {
  type: number;
  flags: number;
  serial: number;
  path?: string | undefined;
  interface?: string | undefined;
  member?: string | undefined;
  errorName?: string | undefined;
  replySerial?: number | undefined;
  destination?: string | undefined;
  sender?: string | undefined;
  signature: string;
  body: DbusValue[];
}

// Header field codes and their types.
const FIELDS = [
  ["path", 1, "o"],
  ["interface", 2, "s"],
  ["member", 3, "s"],
  ["errorName", 4, "s"],
  ["replySerial", 5, "u"],
  ["destination", 6, "s"],
  ["sender", 7, "s"],
  ["signature", 8, "g"],
] as const;

/** The bytes of `message`, little-endian. */
export function encodeMessage(message: Message): Buffer {
  const body = new WireWriter();
  body.writeAll(message.signature, message.body);
  const fields: DbusValue[] = [];
  for (const [key, code, type] of FIELDS) {
    const value = message[key];
    if (value === undefined || (key === "signature" && value === "")) continue;
    fields.push([code, { signature: type, value } satisfies Variant]);
  }
  const head = new WireWriter();
  const fixed = [0x6c, message.type, message.flags, 1, body.offset, message.serial];
  head.writeAll("yyyyuua(yv)", [...fixed, fields]);
  head.pad(8);
  return Buffer.concat([head.bytes(), body.bytes()]);
}

/** The whole length of the message whose first 16 bytes `head` holds. Throws on a bad header. */
export function messageLength(head: Buffer): number {
  const littleEndian = byteOrder(head);
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const bodyLength = view.getUint32(4, littleEndian);
  const fieldsLength = view.getUint32(12, littleEndian);
  const total = Math.ceil((16 + fieldsLength) / 8) * 8 + bodyLength;
  if (total > MAX_MESSAGE) throw new RangeError("D-Bus message over 128 MiB");
  return total;
}

/** Reads one whole message (exactly messageLength bytes). Throws on a malformed one. */
export function decodeMessage(bytes: Buffer): Message {
  const reader = new WireReader(bytes, byteOrder(bytes));
  const [, type, flags, version, bodyLength, serial, fields] = reader.readAll("yyyyuua(yv)");
  if (version !== 1)
    throw new RangeError(`D-Bus message: protocol version ${JSON.stringify(version)}`);
  const message: Message = {
    type: type as number,
    flags: flags as number,
    serial: serial as number,
    signature: "",
    body: [],
  };
  for (const field of fields as [number, Variant][]) {
    const known = FIELDS.find(([, code]) => code === field[0]);
    if (known?.[2] === field[1].signature) Object.assign(message, { [known[0]]: field[1].value });
  }
  reader.align(8);
  if (reader.offset + (bodyLength as number) !== bytes.length) {
    throw new RangeError("D-Bus message: its body length does not match");
  }
  message.body = reader.readAll(message.signature);
  if (reader.offset !== bytes.length) throw new RangeError("D-Bus message: bytes after its body");
  return message;
}

function byteOrder(bytes: Buffer): boolean {
  if (bytes[0] === 0x6c) return true; // "l"
  if (bytes[0] === 0x42) return false; // "B"
  throw new RangeError(`D-Bus message: byte order mark ${String(bytes[0])}`);
}
