// When the next poll of `hook-notify watch` runs: the interval plus up to 10 % jitter; after
// failed polls, exponential backoff up to 15 minutes; after a 429, no sooner than Retry-After,
// but never later than MAX_WAIT_MS (a timer past 2^31-1 ms fires at once in node, and a service
// asking for days is wrong or a date is off: an hour later it is asked again). Pure.
import { MAX_BACKOFF_MS } from "../../core/defaults.js";

/** The longest wait between two polls, whatever the service or the interval says. */
export const MAX_WAIT_MS = 60 * 60_000;
/** The longest --interval / service.intervalSeconds (a day). */
export const MAX_INTERVAL_SECONDS = 86_400;

export interface ScheduleInput {
  intervalMs: number;
  /** Polls in a row that had an error (0 after a clean one). */
  failures: number;
  /** The longest Retry-After the service asked for in the last poll, if any. */
  retryAfterMs?: number | undefined;
  random: () => number;
}

export interface Delay {
  ms: number;
  /** Set when a longer wait was asked for (Retry-After or the interval) and cut to MAX_WAIT_MS. */
  clampedFrom?: number | undefined;
}

// Milliseconds to wait before the next poll.
export function nextDelay(input: ScheduleInput): Delay {
  const intervalMs = finiteOr(input.intervalMs, MAX_WAIT_MS);
  const jitter = Math.min(intervalMs, MAX_WAIT_MS) * 0.1 * input.random();
  const backoff =
    input.failures === 0
      ? intervalMs
      : Math.min(
          Math.max(MAX_BACKOFF_MS, intervalMs),
          intervalMs * 2 ** Math.min(input.failures, 10),
        );
  const asked = Math.max(backoff, finiteOr(input.retryAfterMs ?? 0, Number.POSITIVE_INFINITY));
  if (asked + jitter <= MAX_WAIT_MS) return { ms: Math.round(asked + jitter) };
  return { ms: MAX_WAIT_MS, clampedFrom: asked };
}

function finiteOr(value: number, otherwise: number): number {
  return Number.isFinite(value) && value >= 0 ? value : otherwise;
}
