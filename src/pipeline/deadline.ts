// The deadline budget of one hook run: every number of it, and the arithmetic, in one place.
//
// The client kills a hook entry after its `timeout` (seconds; hook-notify's entries pass the same
// value as --timeout). One run, top to bottom, from `started` (when our code began):
//
//  started ──┬─ stdin wait: inputWaitMs = what is left, less min(AFTER_INPUT_MAX_MS, half of it)
//            ├─ parse, context, config, format, route, policy: pure, about a millisecond
//            ├─ deliver: local sinks start; remote ones are written to the outbox (fsync) and
//            │  the worker is spawned; deliverBudgetMs ends LOG_MARGIN_MS before the deadline
//            └─ log: one NDJSON line
//  deadline ───── started + max(timeout × 1000 − EXIT_MARGIN_MS, MIN_BUDGET_MS), or
//                 started + DEFAULT_BUDGET_MS without --timeout. A SessionEnd without --timeout:
//                 at most started + SESSION_END_BUDGET_MS (Claude Code allows 1.5 s in all)
//  hardDeadline ─ deadline + EXIT_GRACE_MS: the safety net (commands/run.ts) exits 0, whatever runs
//  client ─────── started + timeout × 1000 (EXIT_MARGIN_MS − EXIT_GRACE_MS after hardDeadline)

/** Without --timeout: the whole run's budget (the client's own default is longer). */
export const DEFAULT_BUDGET_MS = 10_000;
/** Kept between our deadline and the client's timeout: exit, and the client reading our exit. */
export const EXIT_MARGIN_MS = 250;
/** Never less than this, whatever --timeout says: enough to read, route and queue. */
export const MIN_BUDGET_MS = 300;
/** The safety net ends the process this long after the deadline, whatever it is doing. */
export const EXIT_GRACE_MS = 200;
/** SessionEnd without --timeout: inside Claude Code's 1.5 s, with room to exit. */
export const SESSION_END_BUDGET_MS = 1300;
/** deliver() ends this long before the deadline so that the log line is written in time. */
export const LOG_MARGIN_MS = 150;
/** At most this much of what is left after stdin is kept for the work after it. */
export const AFTER_INPUT_MAX_MS = 2000;

/** When a hook run must be done, in ms since the epoch. */
export interface HookBudget {
  /** The end of runHook's work: read, route, deliver and log. */
  deadline: number;
  /** When the safety net exits the process (hook mode: 0, nothing on stdout). */
  hardDeadline: number;
}

// The run's deadlines from its start and --timeout (seconds, as the client's entry gives it).
export function hookBudget(started: number, timeoutSeconds: number | undefined): HookBudget {
  const budgetMs =
    timeoutSeconds && timeoutSeconds > 0
      ? timeoutSeconds * 1000 - EXIT_MARGIN_MS
      : DEFAULT_BUDGET_MS;
  const deadline = started + Math.max(budgetMs, MIN_BUDGET_MS);
  return { deadline, hardDeadline: deadline + EXIT_GRACE_MS };
}

// The event may take most of the hook's own budget to arrive (a client on a loaded machine writes
// late); the rest, up to 2 s, is kept for delivering it. No fixed idle second: a slow writer is
// not a stuck one, and only the deadline tells them apart.
export function inputWaitMs(leftMs: number): number {
  return Math.max(0, leftMs - Math.min(AFTER_INPUT_MAX_MS, leftMs / 2));
}

// A SessionEnd with no --timeout gets Claude Code's default budget; every other run keeps its own.
export function eventDeadline(
  deadline: number,
  started: number,
  event: { name: string; explicitTimeout: boolean },
): number {
  if (event.explicitTimeout || event.name !== "SessionEnd") return deadline;
  return Math.min(deadline, started + SESSION_END_BUDGET_MS);
}

// What deliver() may spend from now on: up to the deadline, less the time to log.
export function deliverBudgetMs(deadline: number, now: number): number {
  return deadline - now - LOG_MARGIN_MS;
}
