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

export class WireWriter {
  private buffer = Buffer.alloc(512);
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
    const padding = (alignment - (this.length % alignment)) % alignment;
    this.room(padding).fill(0);
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
      if (code === "x") this.room(8).writeBigInt64LE(big);
      else this.room(8).writeBigUInt64LE(big);
      return;
    }
    const number = value as number;
    if (typeof number !== "number") throw new TypeError(`D-Bus ${code}: not a number`);
    if (code === "y") this.room(1).writeUInt8(number);
    else if (code === "n") this.room(2).writeInt16LE(number);
    else if (code === "q") this.room(2).writeUInt16LE(number);
    else if (code === "i") this.room(4).writeInt32LE(number);
    else if (code === "u" || code === "h") this.room(4).writeUInt32LE(number);
    else if (code === "d") this.room(8).writeDoubleLE(number);
  }

  private writeString(value: string): void {
    const bytes = dbusStringBytes(value);
    this.room(4).writeUInt32LE(bytes.length);
    bytes.copy(this.room(bytes.length + 1));
    this.buffer[this.length - 1] = 0;
  }

  private writeSignature(value: string): void {
    const bytes = Buffer.from(value, "latin1");
    this.room(1).writeUInt8(bytes.length);
    bytes.copy(this.room(bytes.length + 1));
    this.buffer[this.length - 1] = 0;
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
    const lengthAt = this.length;
    this.room(4);
    this.pad(alignmentOf(element[0] ?? ""));
    const start = this.length;
    for (const value of values) this.write(element, value);
    this.buffer.writeUInt32LE(this.length - start, lengthAt);
  }

  // Reserves `size` bytes at the end and returns them (growing the buffer as needed).
  private room(size: number): Buffer {
    if (this.length + size > this.buffer.length) {
      const grown = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + size));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    const start = this.length;
    this.length += size;
    return this.buffer.subarray(start, this.length);
  }
}

function list(value: DbusValue, type: string): readonly DbusValue[] {
  if (!Array.isArray(value)) throw new TypeError(`D-Bus ${type}: not a list`);
  return value;
}

function text(value: DbusValue, type: string): string {
  if (typeof value !== "string") throw new TypeError(`D-Bus ${type}: not a string`);
  return value;
}
