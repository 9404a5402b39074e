import { describe, expect, it } from "vitest";
import { MAX_WAIT_MS, nextDelay } from "../../../src/service/watch/schedule.js";
import { MAX_BACKOFF_MS } from "../../../src/core/defaults.js";

describe("nextDelay", () => {
  it.each([
    [{ intervalMs: 60_000, failures: 0, random: () => 0 }, 60_000],
    [{ intervalMs: 60_000, failures: 0, random: () => 1 }, 66_000],
    [{ intervalMs: 60_000, failures: 1, random: () => 0 }, 120_000],
    [{ intervalMs: 60_000, failures: 3, random: () => 0 }, 480_000],
    [{ intervalMs: 60_000, failures: 9, random: () => 0 }, MAX_BACKOFF_MS],
    [{ intervalMs: 60_000, failures: 1, retryAfterMs: 300_000, random: () => 0 }, 300_000],
    [{ intervalMs: 60_000, failures: 0, retryAfterMs: 5_000, random: () => 0 }, 60_000],
  ])("%j → %i ms", (input, expected) => {
    expect(nextDelay(input)).toEqual({ ms: expected });
  });

  // A node timer past 2^31-1 ms fires after 1 ms: no wait may reach it, whatever is asked.
  it.each([
    [{ intervalMs: 60_000, failures: 1, retryAfterMs: 3_000_000_000, random: () => 1 }],
    [{ intervalMs: 60_000, failures: 1, retryAfterMs: Number.POSITIVE_INFINITY, random: () => 0 }],
    [{ intervalMs: 60_000, failures: 1, retryAfterMs: Number.NaN, random: () => 0 }],
    [{ intervalMs: 1e13, failures: 0, random: () => 1 }],
    [{ intervalMs: 1e13, failures: 10, random: () => 1 }],
  ])("%j is cut to the longest wait, and says what was asked", (input) => {
    const delay = nextDelay(input);
    expect(delay.ms).toBe(MAX_WAIT_MS);
    expect(delay.clampedFrom).toBeGreaterThan(MAX_WAIT_MS);
    expect(MAX_WAIT_MS).toBeLessThan(2 ** 31 - 1);
  });
});
