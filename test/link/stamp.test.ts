// The worker's offer (outbox/fast.json): when a hook may hand its event over, and how the hook
// masks configured secrets in the event text knowing only their fingerprints.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  envPrint,
  fileState,
  maskOf,
  maskText,
  randomBases,
  readStamp,
  stampHolds,
  variablesIn,
  writeStamp,
  type FastStamp,
} from "../../src/link/stamp.js";
import { scrub, secretPartsOf } from "../../src/redact.js";

const SECRET = "https://hooks.slack.com/services/T0AAA/B0BBB/fastSECRETtoken0123456789";

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "hook-notify-stamp-"));
  onTestFinished(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

function stampFor(configPath: string, env: Record<string, string | undefined>): FastStamp {
  const names = variablesIn('{"url": "${SLACK_URL}", "other": "${TOKEN}"}');
  const state = fileState(configPath);
  if (state === undefined) throw new Error("no state");
  return {
    version: 1,
    build: "b1",
    pid: process.pid,
    fifo: "/nonexistent/worker.fifo",
    config: { path: configPath, state },
    env: { names, salt: "salt", print: envPrint(names, "salt", env) },
    mask: maskOf(secretPartsOf(SECRET), randomBases(Math.random)),
  };
}

describe("maskText: the hook masks what scrub would, from fingerprints only", () => {
  const mask = maskOf(secretPartsOf(SECRET), randomBases(Math.random));

  it.each([
    ["the URL itself", `post to ${SECRET} now`],
    ["its JSON-escaped form", JSON.stringify({ m: `"${SECRET}"` })],
    ["its slashes escaped", JSON.stringify({ m: SECRET }).replaceAll("/", "\\/")],
    ["percent-encoded", `x=${encodeURIComponent(SECRET)}`],
    ["the token alone", "token fastSECRETtoken0123456789 end"],
    ["base64", Buffer.from(SECRET).toString("base64")],
    ["twice, overlapping pieces", `${SECRET}${SECRET} /services/T0AAA/B0BBB/x`],
    // Issue 38 (redteam F7): scrub ignores case, and so does the hook.
    ["upper-case", `post to ${SECRET.toUpperCase()} now`],
    ["the token in mixed case", "token FASTsecretTOKEN0123456789 end"],
  ])("%s", (_name, text) => {
    const masked = maskText(text, mask);
    expect(masked.toLowerCase()).not.toContain("fastsecrettoken0123456789");
    expect(masked).not.toContain(Buffer.from(SECRET).toString("base64"));
    expect(masked).toContain("***");
    // Nothing is left that scrub, which knows the values, would mask.
    expect(scrub(masked, secretPartsOf(SECRET))).toBe(masked);
  });

  it("leaves text without a secret as it is (the same string)", () => {
    const text = JSON.stringify({
      message: "All done after the tool ran. https://example.com/a/b",
    });
    expect(maskText(text, mask)).toBe(text);
  });

  it("keeps JSON valid around a masked piece", () => {
    const text = JSON.stringify({ message: `see ${SECRET}`, n: 1 });
    expect(JSON.parse(maskText(text, mask))).toEqual({ message: "see ***", n: 1 });
  });

  it("holds no secret text, only lengths and hashes", () => {
    const stored = JSON.stringify(mask);
    for (const piece of secretPartsOf(SECRET).filter((p) => p.length >= 4))
      expect(stored).not.toContain(piece);
  });

  it("an empty mask changes nothing", () => {
    expect(maskText("abc", maskOf([], [65_537, 65_539]))).toBe("abc");
  });

  it("looking only at runs without white space masks exactly what the full scan masks", () => {
    expect(mask.spaced).toBe(false);
    const words = fc.constantFrom(
      ...secretPartsOf(SECRET).filter((piece) => piece.length >= 4),
      "the",
      "build",
      "x",
      "=",
      "/services/",
      "fastSECRET",
      "FASTsecret",
      "TOKEN0123",
      "token0123",
    );
    const spaces = fc.constantFrom(" ", "\n", "\t", "\u00a0", "\u2028", "", "", "");
    const texts = fc
      .array(fc.tuple(words, spaces), { maxLength: 60 })
      .map((parts) => parts.map(([word, space]) => word + space).join(""));
    fc.assert(
      fc.property(texts, (text) => {
        expect(maskText(text, mask)).toBe(maskText(text, { ...mask, spaced: true }));
      }),
      { numRuns: 2_000 },
    );
  });

  it("masks exactly the stretches a plain look at every position and piece masks", () => {
    // The reference: both hashes of every piece's length at every position, no anchor, no
    // runs, no repeats skipped; overlapping stretches merged, as maskText merges them.
    const hash = (text: string, base: number) => {
      let h = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        h = (Math.imul(h, base) + (c >= 65 && c <= 90 ? c + 32 : c)) | 0;
      }
      return h;
    };
    const plain = (text: string): string => {
      const ranges: [number, number][] = [];
      for (let i = 0; i < text.length; i++) {
        for (const [length, , h1, h2] of mask.items) {
          const piece = text.slice(i, i + length);
          if (piece.length !== length) continue;
          if (hash(piece, mask.bases[0]) === h1 && hash(piece, mask.bases[1]) === h2)
            ranges.push([i, i + length]);
        }
      }
      ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      let out = "";
      let at = 0;
      for (const [start, end] of ranges) {
        if (end <= at) continue;
        out += text.slice(at, Math.max(at, start)) + (start >= at ? "***" : "");
        at = end;
      }
      return out + text.slice(at);
    };
    const words = fc.constantFrom(
      ...secretPartsOf(SECRET).filter((piece) => piece.length >= 4),
      "the",
      "build",
      "x",
      '"',
      "=",
      "/services/",
      "fastSECRET",
      "FASTsecret",
      "TOKEN0123",
      "token0123",
    );
    const spaces = fc.constantFrom(" ", "\n", "\t", "\u00a0", "\u2028", "", "", "");
    const texts = fc
      .array(fc.tuple(words, spaces), { maxLength: 60 })
      .map((parts) => parts.map(([word, space]) => word + space).join(""));
    fc.assert(
      fc.property(texts, (text) => {
        expect(maskText(text, mask)).toBe(plain(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it("an upper-case copy of a hex token is masked, as scrub masks it", () => {
    const hex = "deadbeefcafe0123456789abcdef4242";
    const hexMask = maskOf(secretPartsOf(hex), randomBases(Math.random));
    const text = `raw ${hex} upper ${hex.toUpperCase()} mixed DeadBeefCafe0123456789ABCDEF4242`;
    expect(maskText(text, hexMask)).toBe("raw *** upper *** mixed ***");
    expect(scrub(text, secretPartsOf(hex))).toBe("raw *** upper *** mixed ***");
  });

  it("a secret with white space in it is looked for everywhere", () => {
    const spaced = maskOf(["correct horse battery staple"], randomBases(Math.random));
    expect(spaced.spaced).toBe(true);
    expect(maskText("pass: correct horse battery staple!", spaced)).toBe("pass: ***!");
  });
});

describe("stampHolds: the worker would run this hook's event as the hook would", () => {
  it("holds for the same build, config file and variables; not when any of them differs", () => {
    const dir = scratch();
    const config = join(dir, "config.json");
    writeFileSync(config, '{"sinks":{}}');
    const env = { SLACK_URL: "a", TOKEN: "b" };
    const stamp = stampFor(config, env);
    const view = { build: "b1", configPath: config, env };
    expect(stampHolds(stamp, view)).toBe(true);
    expect(stampHolds(stamp, { ...view, build: "b2" })).toBe(false);
    expect(stampHolds(stamp, { ...view, configPath: join(dir, "other.json") })).toBe(false);
    expect(stampHolds(stamp, { ...view, env: { SLACK_URL: "a", TOKEN: "c" } })).toBe(false);
    expect(stampHolds(stamp, { ...view, env: { SLACK_URL: "a" } })).toBe(false);
    // Variables the config does not use do not matter.
    expect(stampHolds(stamp, { ...view, env: { ...env, UNRELATED: "x" } })).toBe(true);
    writeFileSync(config, '{"sinks":{"desktop":{"type":"desktop"}}}');
    expect(stampHolds(stamp, view)).toBe(false);
  });

  it("an absent config file holds until one appears", () => {
    const dir = scratch();
    const config = join(dir, "config.json");
    const stamp = stampFor(config, {});
    expect(stamp.config.state).toBe("absent");
    expect(stampHolds(stamp, { build: "b1", configPath: config, env: {} })).toBe(true);
    writeFileSync(config, "{}");
    expect(stampHolds(stamp, { build: "b1", configPath: config, env: {} })).toBe(false);
  });

  it("the fingerprint never holds a value", () => {
    const env = { SLACK_URL: SECRET };
    const print = envPrint(["SLACK_URL"], "salt", env);
    expect(print).toMatch(/^[0-9a-f]{16}$/);
    expect(envPrint(["SLACK_URL"], "other salt", env)).not.toBe(print);
  });
});

describe("readStamp / writeStamp", () => {
  it("round-trips a stamp and refuses anything malformed", () => {
    const dir = scratch();
    const file = join(dir, "fast.json");
    const stamp = stampFor(join(dir, "config.json"), {});
    writeStamp(file, stamp);
    expect(readStamp(file)).toEqual(stamp);
    for (const bad of [
      "",
      "null",
      "[]",
      JSON.stringify({ ...stamp, version: 2 }),
      JSON.stringify({ ...stamp, fifo: 3 }),
      JSON.stringify({ ...stamp, mask: { ...stamp.mask, bases: [1, 2] } }),
      JSON.stringify({ ...stamp, mask: { ...stamp.mask, items: [[1, 2, 3]] } }),
      JSON.stringify({ ...stamp, mask: { ...stamp.mask, width: 2 } }),
      JSON.stringify({ ...stamp, env: { ...stamp.env, names: [1] } }),
    ]) {
      writeFileSync(file, bad);
      expect(readStamp(file)).toBeUndefined();
    }
    expect(readStamp(join(dir, "missing.json"))).toBeUndefined();
  });
});

describe("variablesIn", () => {
  it("finds each ${NAME} once, as expand-env reads them", () => {
    expect(variablesIn('{"a":"${B}x${A_1}","c":"${B}","d":"$NOPE ${1X} ${ok}"}')).toEqual([
      "A_1",
      "B",
      "ok",
    ]);
  });
});
