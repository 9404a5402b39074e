// The Telegram buttons' callback_data: within 64 bytes, and accepted only as signed, unchanged,
// for the chat it was made for.
import { describe, expect, it } from "vitest";
import { DECISIONS } from "../../src/approve/answer.js";
import {
  CALLBACK_DATA_MAX_BYTES,
  callbackData,
  newTelegramRequestId,
  readCallback,
} from "../../src/approve/telegram-callback.js";

const KEY = Buffer.alloc(32, 7);
const OTHER_KEY = Buffer.alloc(32, 8);
const CHAT = "-1001234567890";

describe("Telegram callback data", () => {
  it("fits Telegram's 64 bytes and reads back as signed", () => {
    const request = newTelegramRequestId();
    const expiresAt = 4_102_444_800; // 2100-01-01: the longest expiry the data will carry
    for (const decision of DECISIONS) {
      const data = callbackData(KEY, CHAT, request, expiresAt, decision);
      expect(Buffer.byteLength(data)).toBeLessThanOrEqual(CALLBACK_DATA_MAX_BYTES);
      expect(readCallback(KEY, CHAT, data)).toEqual({ ok: true, request, decision, expiresAt });
    }
  });

  it("refuses data made with another key, for another chat, or changed in any part", () => {
    const request = newTelegramRequestId();
    const data = callbackData(KEY, CHAT, request, 2_000_000_000, "deny");
    expect(readCallback(OTHER_KEY, CHAT, data)).toEqual({ ok: false, reason: "forged" });
    expect(readCallback(KEY, "4242", data)).toEqual({ ok: false, reason: "forged" });
    const [prefix, , id, expiry, mac] = data.split(".");
    // Deny turned into Allow (or Allow for this session, or a question's option), the expiry pushed back, the request
    // swapped: the MAC says no.
    for (const code of ["a", "s", "1", "2", "3", "4"]) {
      expect(readCallback(KEY, CHAT, [prefix, code, id, expiry, mac].join("."))).toMatchObject({
        reason: "forged",
      });
    }
    const later = (parseInt(expiry!, 36) + 3600).toString(36);
    expect(readCallback(KEY, CHAT, [prefix, "d", id, later, mac].join("."))).toMatchObject({
      reason: "forged",
    });
    const other = newTelegramRequestId();
    expect(readCallback(KEY, CHAT, [prefix, "d", other, expiry, mac].join("."))).toMatchObject({
      reason: "forged",
    });
  });

  it("calls anything else malformed", () => {
    for (const data of [
      undefined,
      "",
      "hn1.a",
      "x".repeat(65),
      42,
      "hn2.a.aaaaaaaaaaaaaaaa.1.aaaaaaaaaaaaaaaaaaaa",
    ]) {
      expect(readCallback(KEY, CHAT, data)).toEqual({ ok: false, reason: "malformed" });
    }
  });
});
