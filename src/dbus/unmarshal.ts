// Reads D-Bus values from the wire format, in either byte order (the first byte of a message says
// which: a bus may pass on a big-endian sender's message as it came). Offsets count from the start
// of the message, so alignment is the same as when it was written. A malformed message throws.
import type { Buffer } from "node:buffer";
import { alignmentOf, memberTypes, typeEnd, type DbusValue } from "./signature.js";

const MAX_ARRAY = 64 * 1024 * 1024; // the specification's limit on one array's length
const MAX_DEPTH = 64; // containers inside containers (the specification allows 64 in all)

// Numbers are read through a DataView (V8's own code), as marshal.ts writes them.
export class WireReader {
  private depth = 0;
  private readonly buffer: Buffer;
  private readonly view: DataView;
  private readonly littleEndian: boolean;
  offset: number;

  constructor(buffer: Buffer, littleEndian: boolean, offset = 0) {
    this.buffer = buffer;
    this.view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    this.littleEndian = littleEndian;
    this.offset = offset;
  }

  /** Skips the padding to a multiple of `alignment`. */
  align(alignment: number): void {
    this.offset += (alignment - (this.offset % alignment)) % alignment;
    if (this.offset > this.buffer.length)
      throw new RangeError("D-Bus message: padding past its end");
  }

  /** Reads the single complete types of `signature`, in order. */
  readAll(signature: string): DbusValue[] {
    const values: DbusValue[] = [];
    for (let at = 0; at < signature.length;) {
      const end = typeEnd(signature, at);
      values.push(this.read(signature.slice(at, end)));
      at = end;
    }
    return values;
  }

  /** Reads one value of the single complete type `type`. */
  read(type: string): DbusValue {
    const code = type[0] ?? "";
    this.align(alignmentOf(code));
    if (code === "a" || code === "(" || code === "{" || code === "v") {
      if (++this.depth > MAX_DEPTH) throw new RangeError("D-Bus message: nested too deep");
      try {
        if (code === "a") return this.readArray(type.slice(1));
        if (code === "v") return this.readVariant();
        return memberTypes(type).map((member) => this.read(member));
      } finally {
        this.depth -= 1;
      }
    }
    if (code === "s" || code === "o") return this.readText(this.u32());
    if (code === "g") return this.readText(this.view.getUint8(this.take(1)));
    return this.readFixed(code);
  }

  private readFixed(code: string): DbusValue {
    const le = this.littleEndian;
    const view = this.view;
    if (code === "y") return view.getUint8(this.take(1));
    if (code === "b") return this.u32() !== 0;
    if (code === "n") return view.getInt16(this.take(2), le);
    if (code === "q") return view.getUint16(this.take(2), le);
    if (code === "i") return view.getInt32(this.take(4), le);
    if (code === "u" || code === "h") return this.u32();
    if (code === "x") return view.getBigInt64(this.take(8), le);
    if (code === "t") return view.getBigUint64(this.take(8), le);
    return view.getFloat64(this.take(8), le);
  }

  private u32(): number {
    return this.view.getUint32(this.take(4), this.littleEndian);
  }

  private readText(length: number): string {
    const start = this.take(length + 1);
    if (this.buffer[start + length] !== 0)
      throw new RangeError("D-Bus message: a string without its NUL");
    return this.buffer.toString("utf8", start, start + length);
  }

  private readVariant(): DbusValue {
    const signature = this.read("g") as string;
    if (typeEnd(signature, 0) !== signature.length) {
      throw new RangeError(`D-Bus message: variant signature "${signature}"`);
    }
    return { signature, value: this.read(signature) };
  }

  private readArray(element: string): DbusValue[] {
    const length = this.u32();
    if (length > MAX_ARRAY) throw new RangeError("D-Bus message: an array over 64 MiB");
    this.align(alignmentOf(element[0] ?? ""));
    const end = this.offset + length;
    if (end > this.buffer.length) throw new RangeError("D-Bus message: an array past its end");
    const values: DbusValue[] = [];
    while (this.offset < end) values.push(this.read(element));
    if (this.offset !== end) throw new RangeError("D-Bus message: an array's length is wrong");
    return values;
  }

  // Where the next `size` bytes start, checked against the end of the message.
  private take(size: number): number {
    const start = this.offset;
    if (start + size > this.buffer.length)
      throw new RangeError("D-Bus message: a value past its end");
    this.offset += size;
    return start;
  }
}
