// After a send failed: retry later (the retry policy's backoff, a Retry-After) or give up. The
// entry is written back with its next try, except in a flush whose shell lacks a ${VAR}.
import type { HookNotifyError } from "../errors.js";
import { decideRetry } from "../http/retry-policy.js";
import { writeEntry } from "../outbox/store.js";
import { scrub } from "../redact.js";
import type { Attempt } from "./attempt.js";
import { giveUp } from "./give-up.js";
import type { Attempting, EntryRun } from "./steps.js";

// Retry or give up, from the error and the retry policy.
export async function decideAfterFailure(
  { entry, base, secrets }: Pick<Attempting, "entry" | "base" | "secrets">,
  run: EntryRun,
  error: HookNotifyError,
): Promise<Attempt> {
  const attempts = entry.attempts + 1;
  const decision = decideRetry(
    {
      attempts,
      createdAt: entry.createdAt,
      now: run.deps.now(),
      retryable: error.retryable,
      retryAfterMs: error.retryAfterMs,
    },
    run.policy,
    run.random,
  );
  const failed = { ...base, attempts, code: error.code, message: scrub(error.message, secrets) };
  if (!decision.retry) {
    const reason =
      decision.reason === "too-old" ? `gave up (too old): ${failed.message}` : failed.message;
    return giveUp(run, { ...entry, attempts }, { ...failed, outcome: "failed", message: reason });
  }
  const lastError = { code: error.code, message: failed.message };
  // A flush whose shell lacks a ${VAR} asked nothing of the service: the entry stays as the
  // worker scheduled it (its Retry-After, its count), for the worker that has the variable.
  const untouched = run.force && error.code === "CONFIG_ENV_MISSING";
  const notBefore = untouched ? entry.notBefore : decision.notBefore;
  if (!untouched)
    await writeEntry(run.paths, run.paths.pending, { ...entry, attempts, notBefore, lastError });
  return { ...failed, outcome: "retry", notBefore };
}
