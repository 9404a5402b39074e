// Pure retry planning for the outbox worker: exponential backoff with full jitter, Retry-After,
// and a give-up age. No clock and no randomness of its own: both come in as arguments.

/** Numbers that shape retries; every field is in milliseconds. */
export interface RetryPolicy {
  /** Ceiling of the first retry's random wait; doubles per attempt. */
  baseMs: number;
  /** Largest ceiling a backoff can reach. */
  capMs: number;
  /** Shortest wait, so a retry never spins. */
  minMs: number;
  /** A delivery older than this is given up (moved to failed/). */
  maxAgeMs: number;
}

// Defaults: 1-5 s, then ≤10 s, 20 s, 40 s, … up to 30 min between tries, for 24 hours.
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseMs: 5_000,
  capMs: 30 * 60_000,
  minMs: 1_000,
  maxAgeMs: 24 * 60 * 60_000,
};

/** What the worker learns from one failed attempt. */
export interface FailedAttempt {
  /** Attempts made so far, this one included (≥ 1). */
  attempts: number;
  /** When the delivery was first enqueued (ms since epoch). */
  createdAt: number;
  now: number;
  retryable: boolean;
  retryAfterMs?: number | undefined;
}

export type RetryDecision =
  | { retry: true; notBefore: number; delayMs: number }
  | { retry: false; reason: "not-retryable" | "too-old" };

// Full jitter (AWS): a random wait in [minMs, min(capMs, baseMs·2^(n-1))].
export function backoffMs(attempts: number, policy: RetryPolicy, random: () => number): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  const ceiling = Math.max(Math.min(policy.capMs, policy.baseMs * 2 ** exponent), policy.minMs);
  return Math.round(policy.minMs + random() * (ceiling - policy.minMs));
}

// Decides whether and when a failed delivery is tried again; a server's Retry-After wins if longer.
export function decideRetry(
  attempt: FailedAttempt,
  policy: RetryPolicy,
  random: () => number,
): RetryDecision {
  if (!attempt.retryable) return { retry: false, reason: "not-retryable" };
  const jittered = backoffMs(attempt.attempts, policy, random);
  const delayMs = Math.max(jittered, attempt.retryAfterMs ?? 0);
  const notBefore = attempt.now + delayMs;
  if (notBefore - attempt.createdAt > policy.maxAgeMs) return { retry: false, reason: "too-old" };
  return { retry: true, notBefore, delayMs };
}

// Retry-After is delay-seconds or an HTTP-date (RFC 9110 §10.2.3); anything else is ignored.
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date) || !/[a-z]/i.test(text)) return undefined;
  return Math.max(date - now, 0);
}
