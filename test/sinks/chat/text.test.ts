import { describe, expect, it } from "vitest";
import {
  breakMentions,
  describeOrigin,
  encodeSlackMrkdwn,
  escapeSlack,
  fitText,
  jsonBytes,
  levelEmoji,
} from "../../../src/sinks/chat/text.js";
import { attention, isWellFormed, stop } from "./notifications.js";

const same = (text: string) => text;

describe("fitText", () => {
  it("returns short text unchanged (encoded)", () => {
    expect(fitText("a < b", escapeSlack, { chars: 100 })).toBe("a &lt; b");
  });

  it.each([
    ["chars", { chars: 10 }, (s: string) => s.length <= 10],
    ["bytes", { bytes: 10 }, (s: string) => Buffer.byteLength(s) <= 10],
    ["jsonBytes", { jsonBytes: 10 }, (s: string) => jsonBytes(s) <= 10],
  ] as const)("trims to %s with an ellipsis", (_name, limit, isWithin) => {
    const out = fitText("abcdefghijklmnopqrstuvwxyz", same, limit);
    expect(out.endsWith("…")).toBe(true);
    expect(isWithin(out)).toBe(true);
  });

  it("never splits a surrogate pair", () => {
    const out = fitText("😀".repeat(10), same, { chars: 6 });
    expect(out).toBe("😀😀…");
    expect(isWellFormed(out)).toBe(true);
  });

  it("cuts before encoding, so an entity is never cut in half", () => {
    const out = fitText("&&&&&&&&&&", escapeSlack, { chars: 12 });
    expect(out).toBe("&amp;&amp;…");
  });

  it("counts JSON escapes (newlines, quotes) in jsonBytes", () => {
    const out = fitText('\n"'.repeat(50), same, { jsonBytes: 20 });
    expect(jsonBytes(out)).toBeLessThanOrEqual(20);
    expect(out.endsWith("…")).toBe(true);
  });

  it("returns an empty string when not even the ellipsis fits", () => {
    expect(fitText("abc", same, { chars: 0 })).toBe("");
  });
});

describe("breakMentions", () => {
  it.each([
    ["@everyone", "@\u200Beveryone"],
    ["hi @here!", "hi @\u200Bhere!"],
    ["x@channel", "x@\u200Bchannel"],
    ["@all", "@\u200Ball"],
    ["ping @alice", "ping @\u200Balice"],
    ["<!channel>", "<\u200B!channel>"],
    ["<@U123>", "<\u200B@\u200BU123>"],
    ["<users/all>", "<\u200Busers/all>"],
    ["<at>Bob</at>", "<\u200Bat>Bob</at>"],
  ])("%j → %j", (input, output) => {
    expect(breakMentions(input)).toBe(output);
  });

  it("leaves e-mail addresses and plain text alone", () => {
    expect(breakMentions("mail dev@example.com, a < b")).toBe("mail dev@example.com, a < b");
    expect(breakMentions("see https://npm.example/@scope/pkg")).toBe(
      "see https://npm.example/@scope/pkg",
    );
  });
});

describe("Slack escaping", () => {
  it("escapes only & < >", () => {
    expect(escapeSlack(`a & b <c> "d" 'e'`)).toBe(`a &amp; b &lt;c&gt; "d" 'e'`);
  });

  it("turns <!channel> into &lt;!channel&gt; and breaks @everyone", () => {
    expect(encodeSlackMrkdwn("<!channel> @everyone")).toBe("&lt;!channel&gt; @\u200Beveryone");
  });
});

describe("levelEmoji and describeOrigin", () => {
  it("gives each level its own emoji", () => {
    expect(new Set([levelEmoji("done"), levelEmoji("attention"), levelEmoji("failure")]).size).toBe(
      3,
    );
  });

  it("names project, client and event", () => {
    expect(describeOrigin(stop)).toBe("shop-api · Claude Code · Stop");
    expect(describeOrigin({ ...attention, client: "droid", sessionTitle: "Fix login" })).toBe(
      "shop-api · Droid · Notification · Fix login",
    );
  });
});
