// When the next poll of `hook-notify watch` runs: the interval plus up to 10 % jitter; after
// failed polls, exponential backoff up to 15 minutes; after a 429, no sooner than Retry-After.
// Pure.
import { MAX_BACKOFF_MS } from "../../core/defaults.js";

export interface ScheduleInput {
  intervalMs: number;
  /** Polls in a row that had an error (0 after a clean one). */
  failures: number;
  /** The longest Retry-After the service asked for in the last poll, if any. */
  retryAfterMs?: number | undefined;
  random: () => number;
}

// Milliseconds to wait before the next poll.
export function nextDelay(input: ScheduleInput): number {
  const jitter = input.intervalMs * 0.1 * input.random();
  const backoff =
    input.failures === 0
      ? input.intervalMs
      : Math.min(MAX_BACKOFF_MS, input.intervalMs * 2 ** Math.min(input.failures, 10));
  return Math.round(Math.max(backoff, input.retryAfterMs ?? 0) + jitter);
}
