// How the background worker spends its time while it waits, in one place: the worker follows it
// and `doctor` prints it beside what the worker costs (issue #19's idle cost).

/** The lock's heartbeat (a utimes); STALE_MS in lock.ts is six of these. */
export const HEARTBEAT_MS = 10_000;
/** With a socket, a sleeping worker still looks at the outbox this often. */
export const RECHECK_MS = 60_000;
/** How long a worker stays after its last work unless HOOK_NOTIFY_WORKER_IDLE_SECONDS says. */
export const DEFAULT_IDLE_SECONDS = 600;

// The fast path (a hook hands its event over without loading the pipeline, link/offer.ts)
// exists where FIFOs do and HOOK_NOTIFY_FAST is not "0".
export function fastPathOn(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
): boolean {
  return platform !== "win32" && env.HOOK_NOTIFY_FAST !== "0";
}

// HOOK_NOTIFY_WORKER_IDLE_SECONDS: 0 to 86400; anything else means the default.
export function workerIdleSeconds(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env.HOOK_NOTIFY_WORKER_IDLE_SECONDS;
  const seconds = raw === undefined || raw.trim() === "" ? Number.NaN : Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 && seconds <= 86_400
    ? seconds
    : DEFAULT_IDLE_SECONDS;
}
