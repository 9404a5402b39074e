// The output edge: outside text becomes inert, our own colour marks become escapes.
import { describe, expect, it } from "vitest";
import { colourMark, inert } from "../src/inert-output.js";

describe("inert", () => {
  it.each([
    ["ESC / CSI", "\u001b[2J", "\\u001b[2J"],
    ["OSC 52 (clipboard)", "\u001b]52;c;aGk=\u0007", "\\u001b]52;c;aGk=\\u0007"],
    ["C1 CSI", "\u009b31m", "\\u009b31m"],
    ["carriage return", "ok\rfailed", "ok\\u000dfailed"],
    ["bidi override", "\u202egnp.exe", "\\u202egnp.exe"],
    ["bidi isolate", "\u2066x\u2069", "\\u2066x\\u2069"],
  ])("makes %s visible and inert", (_name, text, shown) => {
    expect(inert(text)).toBe(shown);
  });

  it("keeps newlines, tabs and ordinary Unicode", () => {
    expect(inert("a\tb\nc · ✓ ✗ 🚨 é")).toBe("a\tb\nc · ✓ ✗ 🚨 é");
  });

  it("leaves JSON parseable, with the same data", () => {
    const value = { text: "x\u009by\u202ez" };
    expect(JSON.parse(inert(JSON.stringify(value)))).toEqual(value);
  });

  it("turns this process's colour marks into escapes, and nothing an outsider can forge", () => {
    expect(inert(`${colourMark(31)}red${colourMark(39)}`)).toBe("\u001b[31mred\u001b[39m");
    expect(inert("\uE0000000000000000000:31mx")).toBe("\uE0000000000000000000:31mx");
  });
});
