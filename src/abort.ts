// Deadlines as abort signals that cannot be lost. On Node 20, AbortSignal.timeout() inside
// AbortSignal.any() holds its timer only weakly: after a garbage collection it may never fire, and
// a request to a server that never answers then hangs (nodejs/node#57736; reproduced here with
// --expose-gc). A plain timer holds a plain controller strongly until it fires or is cleared.

/** A signal that aborts after `ms` or when any of `others` does; clear() frees the timer. */
export interface Deadline {
  signal: AbortSignal;
  clear(): void;
}

export function deadline(ms: number, ...others: (AbortSignal | undefined)[]): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(
    () => {
      controller.abort(new DOMException("The operation timed out.", "TimeoutError"));
    },
    Math.max(1, ms),
  );
  const sources = others.filter((signal): signal is AbortSignal => signal !== undefined);
  const signal =
    sources.length === 0 ? controller.signal : AbortSignal.any([controller.signal, ...sources]);
  return {
    signal,
    clear: () => {
      clearTimeout(timer);
    },
  };
}

/** A signal that aborts when any of `signals` does (no timer of its own, so nothing to lose). */
export function eitherSignal(...signals: AbortSignal[]): AbortSignal {
  return AbortSignal.any(signals);
}

// Runs `work` under a fresh deadline and frees its timer however the work ends.
export async function withDeadline<T>(
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
  ...others: (AbortSignal | undefined)[]
): Promise<T> {
  const timer = deadline(ms, ...others);
  try {
    return await work(timer.signal);
  } finally {
    timer.clear();
  }
}
