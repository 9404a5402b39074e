import { describe, expect, it } from "vitest";
import {
  backoffMs,
  DEFAULT_RETRY_POLICY,
  decideRetry,
  parseRetryAfter,
  type RetryPolicy,
} from "../../src/http/retry-policy.js";

const policy: RetryPolicy = { baseMs: 1_000, capMs: 60_000, minMs: 100, maxAgeMs: 3_600_000 };
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe("backoffMs", () => {
  it.each([
    // attempts, random, expected
    [1, 0, 100],
    [1, 1, 1_000],
    [2, 1, 2_000],
    [3, 0.5, 100 + 0.5 * 3_900],
    [7, 1, 60_000],
    [50, 1, 60_000],
    [0, 1, 1_000],
  ])("attempt %i with random %f waits %i ms", (attempts, random, expected) => {
    expect(backoffMs(attempts, policy, () => random)).toBe(expected);
  });

  it("stays within [minMs, ceiling] for every random draw (full jitter)", () => {
    for (let attempts = 1; attempts < 20; attempts++) {
      const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** (attempts - 1));
      for (const r of [0, 0.1, 0.5, 0.9, 0.999]) {
        const wait = backoffMs(attempts, policy, () => r);
        expect(wait).toBeGreaterThanOrEqual(policy.minMs);
        expect(wait).toBeLessThanOrEqual(ceiling);
      }
    }
  });

  it("has sane defaults: a first retry within 1-5 s, a cap of 30 min, 24 h to give up", () => {
    expect(backoffMs(1, DEFAULT_RETRY_POLICY, () => 0)).toBe(1_000);
    expect(backoffMs(1, DEFAULT_RETRY_POLICY, () => 1)).toBe(5_000);
    expect(backoffMs(40, DEFAULT_RETRY_POLICY, () => 1)).toBe(30 * 60_000);
    expect(DEFAULT_RETRY_POLICY.maxAgeMs).toBe(24 * 3_600_000);
  });
});

describe("decideRetry", () => {
  const base = { attempts: 1, createdAt: NOW, now: NOW, retryable: true };
  it.each([
    ["a retryable failure", base, { retry: true, notBefore: NOW + 1_000, delayMs: 1_000 }],
    [
      "a permanent failure",
      { ...base, retryable: false },
      { retry: false, reason: "not-retryable" },
    ],
    [
      "Retry-After longer than the backoff",
      { ...base, retryAfterMs: 30_000 },
      { retry: true, notBefore: NOW + 30_000, delayMs: 30_000 },
    ],
    [
      "Retry-After shorter than the backoff",
      { ...base, retryAfterMs: 10 },
      { retry: true, notBefore: NOW + 1_000, delayMs: 1_000 },
    ],
    [
      "a delivery past the give-up age",
      { ...base, createdAt: NOW - 3_600_000 },
      { retry: false, reason: "too-old" },
    ],
    [
      "Retry-After beyond the give-up age",
      { ...base, retryAfterMs: 7_200_000 },
      { retry: false, reason: "too-old" },
    ],
  ])("%s", (_name, attempt, expected) => {
    expect(decideRetry(attempt, policy, () => 1)).toEqual(expected);
  });
});

describe("parseRetryAfter", () => {
  it.each([
    ["120", 120_000],
    [" 0 ", 0],
    ["Sun, 22 Nov 2026 12:00:30 GMT", 30_000],
    ["Sun, 22 Nov 2026 11:00:00 GMT", 0],
    ["", undefined],
    ["soon", undefined],
    ["-5", undefined],
    ["1.5", undefined],
    [undefined, undefined],
  ])("%j → %j ms", (value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });
});
