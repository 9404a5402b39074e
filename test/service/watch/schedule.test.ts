import { describe, expect, it } from "vitest";
import { nextDelay } from "../../../src/service/watch/schedule.js";
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
    expect(nextDelay(input)).toBe(expected);
  });
});
