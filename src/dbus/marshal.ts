// Writes D-Bus values in the little-endian wire format (the specification's "Marshaling"): every
// value aligned to its type's boundary counted from the start of the message, arrays led by their
// byte length (which excludes the padding before the first element), strings NUL-terminated.
import { Buffer } from "node:buffer";
import { memberTypes, typeEnd, alignmentOf, type DbusValue, type Variant } from "./signature.js";

/** A D-Bus string: valid UTF-8 without NUL. A NUL becomes U+FFFD, as does a lone surrogate
 *  (Buffer's UTF-8 encoder replaces it), so outside text never makes the bus drop the connection. */
export function dbusStringBytes(text: string): Buffer {
  return Buffer.from(text.includes("\0") ? text.replaceAll("\0", "\uFFFD") : text, "utf8");
}

// Numbers go through a DataView (V8's own code) at offsets into one buffer: node's Buffer writers
// are functions each process compiles on first use, and a subarray per value was an object each
// (~3 M instructions before a cold worker's first banner, issue 41). The buffer is allocated
// zeroed and only ever written forward, so padding is already NUL.
export class WireWriter {
  private buffer = Buffer.alloc(512);
  private view = viewOf(this.buffer);
  private length = 0;

  /** The bytes written so far. */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  get offset(): number {
    return this.length;
  }

  /** Pads with NUL bytes to a multiple of `alignment`. */
  pad(alignment: number): void {
    this.room((alignment - (this.length % alignment)) % alignment);
  }

  /** Writes `values` as the single complete types of `signature`, in order. */
  writeAll(signature: string, values: readonly DbusValue[]): void {
    let at = 0;
    for (const value of values) {
      const end = typeEnd(signature, at);
      this.write(signature.slice(at, end), value);
      at = end;
    }
    if (at !== signature.length) {
      throw new TypeError(`D-Bus: ${values.length} values for signature "${signature}"`);
    }
  }

  /** Writes one value of the single complete type `type`. */
  write(type: string, value: DbusValue): void {
    const code = type[0] ?? "";
    this.pad(alignmentOf(code));
    if (code === "a") this.writeArray(type.slice(1), list(value, type));
    else if (code === "(" || code === "{")
      this.writeAll(memberTypes(type).join(""), list(value, type));
    else if (code === "v") this.writeVariant(value as Variant);
    else if (code === "s" || code === "o") this.writeString(text(value, type));
    else if (code === "g") this.writeSignature(text(value, type));
    else this.writeFixed(code, value);
  }

  private writeFixed(code: string, value: DbusValue): void {
    if (code === "b") {
      this.writeFixed("u", value === true ? 1 : 0);
      return;
    }
    if (code === "x" || code === "t") {
      const big = BigInt(value as bigint | number);
      const [min, max] = code === "x" ? [-(2n ** 63n), 2n ** 63n - 1n] : [0n, 2n ** 64n - 1n];
      if (big < min || big > max) throw new RangeError(`D-Bus ${code}: ${big} is out of range`);
      const at = this.room(8);
      if (code === "x") this.view.setBigInt64(at, big, true);
      else this.view.setBigUint64(at, big, true);
      return;
    }
    const number = value as number;
    if (typeof number !== "number") throw new TypeError(`D-Bus ${code}: not a number`);
    if (code === "d") {
      const at = this.room(8); // first: room() may replace the buffer and its view
      this.view.setFloat64(at, number, true);
      return;
    }
    const range = RANGES[code];
    if (!range) return;
    const [size, min, max] = range;
    if (!(number >= min && number <= max))
      throw new RangeError(`D-Bus ${code}: ${number} is out of range`);
    const at = this.room(size);
    if (size === 1) this.view.setUint8(at, number);
    else if (size === 2) this.view.setUint16(at, number, true);
    else this.view.setUint32(at, number, true);
  }

  private writeString(value: string): void {
    const bytes = dbusStringBytes(value);
    const at = this.room(4 + bytes.length + 1); // first: room() may replace the buffer
    this.view.setUint32(at, bytes.length, true);
    this.buffer.set(bytes, at + 4);
  }

  // A signature is ASCII (signature.ts checks its codes); as latin1 would, each code unit's low
  // byte.
  private writeSignature(value: string): void {
    const at = this.room(1 + value.length + 1); // first: room() may replace the buffer
    this.view.setUint8(at, value.length & 0xff);
    for (let i = 0; i < value.length; i++) this.buffer[at + 1 + i] = value.charCodeAt(i) & 0xff;
  }

  private writeVariant(value: Variant): void {
    if (typeof value !== "object" || Array.isArray(value))
      throw new TypeError("D-Bus v: no signature");
    if (typeEnd(value.signature, 0) !== value.signature.length) {
      throw new TypeError(`D-Bus v: "${value.signature}" is not one complete type`);
    }
    this.writeSignature(value.signature);
    this.write(value.signature, value.value);
  }

  private writeArray(element: string, values: readonly DbusValue[]): void {
    const lengthAt = this.room(4);
    this.pad(alignmentOf(element[0] ?? ""));
    const start = this.length;
    for (const value of values) this.write(element, value);
    this.view.setUint32(lengthAt, this.length - start, true);
  }

  // Reserves `size` bytes at the end and returns where they start (growing the buffer as needed).
  private room(size: number): number {
    if (this.length + size > this.buffer.length) {
      const grown = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + size));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
      this.view = viewOf(grown);
    }
    const start = this.length;
    this.length += size;
    return start;
  }
}

/** [bytes, min, max] of the fixed integer types; signed ones are written as their two's
 * complement (as Buffer's writers do). */
const RANGES: Partial<Record<string, [1 | 2 | 4, number, number]>> = {
  y: [1, 0, 0xff],
  n: [2, -0x8000, 0x7fff],
  q: [2, 0, 0xffff],
  i: [4, -0x80000000, 0x7fffffff],
  u: [4, 0, 0xffffffff],
  h: [4, 0, 0xffffffff],
};

const viewOf = (buffer: Buffer) =>
  new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);

function list(value: DbusValue, type: string): readonly DbusValue[] {
  if (!Array.isArray(value)) throw new TypeError(`D-Bus ${type}: not a list`);
  return value;
}

function text(value: DbusValue, type: string): string {
  if (typeof value !== "string") throw new TypeError(`D-Bus ${type}: not a string`);
  return value;
}
