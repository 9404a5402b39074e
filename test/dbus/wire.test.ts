// The wire format against byte sequences worked out by hand from the D-Bus specification
// ("Marshaling (Wire Format)" and "Message Format"), both byte orders, and a stream of messages
// arriving one byte at a time.
import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { WireWriter } from "../../src/dbus/marshal.js";
import { decodeMessage, encodeMessage, MessageType, type Message } from "../../src/dbus/message.js";
import { MessageStream } from "../../src/dbus/message-stream.js";
import { authRequest, readAuthReply } from "../../src/dbus/sasl.js";
import type { DbusValue } from "../../src/dbus/signature.js";
import { WireReader } from "../../src/dbus/unmarshal.js";

const hex = (text: string) => Buffer.from(text.replace(/\s|\|/g, ""), "hex");
const ascii = (text: string) => Buffer.from(text, "latin1").toString("hex");

function written(signature: string, values: DbusValue[]): string {
  const writer = new WireWriter();
  writer.writeAll(signature, values);
  return writer.bytes().toString("hex");
}

// org.freedesktop.DBus.Hello, serial 1: fixed header, then the fields PATH, INTERFACE, MEMBER,
// DESTINATION, each a struct (yv) aligned to 8; the array's length (0x6d = 109) counts from the
// first field (offset 16) to the end of the last (offset 125); padding to 128; no body.
const HELLO = [
  "6c 01 00 01 | 00000000 | 01000000 | 6d000000",
  `01 01 6f 00 | 15000000 ${ascii("/org/freedesktop/DBus")} 00 | 0000`,
  `02 01 73 00 | 14000000 ${ascii("org.freedesktop.DBus")} 00 | 000000`,
  `03 01 73 00 | 05000000 ${ascii("Hello")} 00 | 0000`,
  `06 01 73 00 | 14000000 ${ascii("org.freedesktop.DBus")} 00 | 000000`,
].join("");

const hello: Message = {
  type: MessageType.call,
  flags: 0,
  serial: 1,
  path: "/org/freedesktop/DBus",
  interface: "org.freedesktop.DBus",
  member: "Hello",
  destination: "org.freedesktop.DBus",
  signature: "",
  body: [],
};

describe("marshalling", () => {
  it("writes a Hello call byte for byte, and reads it back", () => {
    expect(encodeMessage(hello).toString("hex")).toBe(hex(HELLO).toString("hex"));
    expect(decodeMessage(hex(HELLO))).toEqual(hello);
  });

  it("writes a string array: its length excludes nothing but counts the padding between elements", () => {
    expect(written("as", [["a", "bc"]])).toBe(
      hex("0f000000 01000000 6100 0000 02000000 626300").toString("hex"),
    );
  });

  it("writes a dict of variants: entries aligned to 8, the padding before the first not counted", () => {
    const dict = [["urgency", { signature: "y", value: 2 }]];
    expect(written("a{sv}", [dict])).toBe(
      hex(`10000000 00000000 07000000 ${ascii("urgency")} 00 | 01 79 00 | 02`).toString("hex"),
    );
  });

  it("aligns every fixed type to its size and a struct to 8", () => {
    const values: DbusValue[] = [1, true, -2, 3, -4, 5, -6n, 7n, 0.5, "s", "/o", "g", [9, "x"]];
    const bytes = written("ybnqiuxtdsog(ys)", values);
    expect(bytes).toBe(
      hex(
        "01 000000 01000000 | feff 0300 | fcffffff 05000000 00000000 | faffffffffffffff 0700000000000000" +
          "000000000000e03f | 01000000 7300 0000 02000000 2f6f00 | 01 6700 | 00000000 0000 | 09 000000 01000000 7800",
      ).toString("hex"),
    );
    const reader = new WireReader(Buffer.from(bytes, "hex"), true);
    expect(reader.readAll("ybnqiuxtdsog(ys)")).toEqual(values);
  });

  it("writes values past its first buffer whole: strings, signatures and numbers across a growth", () => {
    const long = "x".repeat(700);
    const values: DbusValue[] = ["a".repeat(509), long, 0.25, { signature: "s", value: long }, 7];
    const reader = new WireReader(Buffer.from(written("ssdvu", values), "hex"), true);
    expect(reader.readAll("ssdvu")).toEqual(values);
  });

  it("refuses a number its type cannot hold instead of writing another one", () => {
    for (const [type, value] of [
      ["y", 256],
      ["y", -1],
      ["n", 0x8000],
      ["q", -1],
      ["i", 2 ** 31],
      ["u", 2 ** 32],
      ["u", Number.NaN],
      ["x", 2n ** 63n],
      ["t", -1n],
    ] as const)
      expect(() => written(type, [value]), `${type} ${String(value)}`).toThrow(RangeError);
    // The edges of each range go through, and read back as written.
    const edges: DbusValue[] = [
      255,
      -0x8000,
      0xffff,
      -(2 ** 31),
      2 ** 32 - 1,
      -(2n ** 63n),
      2n ** 64n - 1n,
    ];
    const reader = new WireReader(Buffer.from(written("ynqiuxt", edges), "hex"), true);
    expect(reader.readAll("ynqiuxt")).toEqual(edges);
  });

  it("reads a big-endian signal as a bus passes it on", () => {
    // ActionInvoked(u 42, s "allow") from :1.7, serial 5: PATH, INTERFACE, MEMBER, SENDER, SIGNATURE
    // (fields 16..144, so 0x80 long), then the 14-byte body.
    const bytes = hex(
      [
        "42 04 00 01 | 0000000e | 00000005 | 00000080",
        `01 01 6f 00 | 0000001e ${ascii("/org/freedesktop/Notifications")} 00 | 00`,
        `02 01 73 00 | 0000001d ${ascii("org.freedesktop.Notifications")} 00 | 0000`,
        `03 01 73 00 | 0000000d ${ascii("ActionInvoked")} 00 | 0000`,
        `07 01 73 00 | 00000004 ${ascii(":1.7")} 00 | 000000`,
        `08 01 67 00 | 02 7573 00`,
        `0000002a | 00000005 ${ascii("allow")} 00`,
      ].join(""),
    );
    expect(decodeMessage(bytes)).toEqual({
      type: MessageType.signal,
      flags: 0,
      serial: 5,
      path: "/org/freedesktop/Notifications",
      interface: "org.freedesktop.Notifications",
      member: "ActionInvoked",
      sender: ":1.7",
      signature: "us",
      body: [42, "allow"],
    });
  });

  it("refuses a malformed message instead of guessing", () => {
    const cut = hex(HELLO);
    cut.writeUInt32LE(200, 12); // the fields array claims more than there is
    expect(() => decodeMessage(cut)).toThrow(RangeError);
    expect(() => decodeMessage(Buffer.concat([Buffer.from("x"), hex(HELLO).subarray(1)]))).toThrow(
      /byte order/,
    );
  });

  it("replaces a NUL and a lone surrogate in a string", () => {
    expect(written("s", ["a\0\ud800"])).toBe(hex("07000000 61 efbfbd efbfbd 00").toString("hex"));
  });
});

describe("the message stream", () => {
  it("cuts messages that arrive one byte at a time, and several in one chunk", () => {
    const signal: Message = {
      type: MessageType.signal,
      flags: 0,
      serial: 2,
      path: "/org/freedesktop/Notifications",
      interface: "org.freedesktop.Notifications",
      member: "NotificationClosed",
      sender: ":1.3",
      signature: "uu",
      body: [7, 2],
    };
    const bytes = Buffer.concat([
      encodeMessage(hello),
      encodeMessage(signal),
      encodeMessage(hello),
    ]);
    const slow = new MessageStream();
    const seen: Message[] = [];
    for (const byte of bytes) seen.push(...slow.push(Buffer.from([byte])));
    expect(seen).toEqual([hello, signal, hello]);
    expect(new MessageStream().push(bytes)).toEqual([hello, signal, hello]);
  });
});

describe("SASL EXTERNAL", () => {
  it("sends the uid as hex of its decimal digits, then BEGIN", () => {
    expect(authRequest(1000).toString("latin1")).toBe("\0AUTH EXTERNAL 31303030\r\nBEGIN\r\n");
    expect(authRequest(0).toString("latin1")).toBe("\0AUTH EXTERNAL 30\r\nBEGIN\r\n");
  });

  it("reads OK with the bytes after it, waits for a whole line, and reports a refusal", () => {
    const ok = readAuthReply(Buffer.from(`OK ${"ab".repeat(16)}\r\nlmore`, "latin1"));
    expect(ok).toEqual({ state: "ok", rest: Buffer.from("lmore") });
    expect(readAuthReply(Buffer.from("OK 12"))).toEqual({ state: "more" });
    expect(readAuthReply(Buffer.from("REJECTED EXTERNAL\r\n"))).toEqual({
      state: "refused",
      line: "REJECTED EXTERNAL",
    });
    expect(readAuthReply(Buffer.from("ERROR \x1b[31m\r\n", "latin1"))).toEqual({
      state: "refused",
      line: "ERROR ?[31m",
    });
  });
});
