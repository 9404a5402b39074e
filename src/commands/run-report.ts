// What a run of the hook says when it is over (run.ts): in hook mode only an unusable event or
// config and a missing outbox, on stderr; with --wait the outcomes, with --dry-run the plan.
import { dirname } from "node:path";
import type { Deps } from "../deps.js";
import type { ErrorCode } from "../errors.js";
import { logPath } from "../config/paths.js";
import type { HookRun } from "../pipeline/run-hook.js";
import { printPlan } from "./dry-run-plan.js";
import { say } from "./run-output.js";

const UNUSABLE: readonly ErrorCode[] = [
  "INPUT_EMPTY",
  "INPUT_TIMEOUT",
  "INPUT_TOO_LARGE",
  "INPUT_INVALID",
  "CONFIG_INVALID",
  "CONFIG_UNREADABLE",
];

// Prints what the mode calls for; returns true when the run should exit 1.
export function report(run: HookRun, mode: "hook" | "wait" | "dry-run", deps: Deps): boolean {
  const { record } = run;
  const unusable = record.error !== undefined && UNUSABLE.includes(record.error.code);
  // The config's problems reach a hook's stderr once per version of the file (config-notice.ts).
  const configError = record.error?.code.startsWith("CONFIG_") === true;
  if (record.error && !(mode === "hook" && configError))
    say(`hook-notify: ${record.error.message}`);
  reportNoOutbox(run, deps);
  if (mode === "hook") return unusable;
  for (const issue of record.issues) say(`hook-notify: ${issue}`);
  for (const skip of record.skipped) say(`hook-notify: skipped ${skip.sink}: ${skip.reason}`);
  if (record.ignored)
    say(`hook-notify: ${record.ignored} is not an event hook-notify notifies on; nothing to do.`);
  if (mode === "dry-run") printPlan(run, deps);
  else printOutcomes(run);
  return (
    record.error !== undefined || record.issues.length > 0 || record.outcomes.some((o) => !o.ok)
  );
}

// No outbox: the one place a person may see it is stderr (hook mode allows it), so say what
// happened to each delivery and where the trace is.
function reportNoOutbox(run: HookRun, deps: Deps): void {
  const direct = run.record.outcomes.flatMap((o) =>
    o.outcome !== "queued" && o.outcome !== "coalesced" && o.outcome !== "skipped" && o.outboxError
      ? [{ ...o, outboxError: o.outboxError }]
      : [],
  );
  for (const o of direct) {
    const tries = `${String(o.attempts ?? 1)} attempt(s)`;
    const result =
      o.outcome === "failed"
        ? `NOT delivered after ${tries} within the hook's budget (${o.code}: ${o.error}); it is lost`
        : `sent directly (${tries})`;
    say(`hook-notify: the outbox cannot be written (${o.outboxError}); ${o.sink}: ${result}.`);
  }
  const log = logPath(deps);
  if (direct.length > 0 || (run.loggedTo !== undefined && run.loggedTo !== log)) {
    const where = run.loggedTo ?? "nowhere (no writable place)";
    say(
      `hook-notify: logged to ${where}. Check that ${dirname(log)} exists and is yours and writable, and the disk has space.`,
    );
  }
}

function printOutcomes(run: HookRun): void {
  for (const o of run.record.outcomes) {
    const status =
      o.outcome === "failed"
        ? `failed ${o.code}: ${o.error}`
        : o.outcome === "queued"
          ? "queued"
          : "ok";
    console.log(`${o.ok ? "✓" : "✗"} ${o.sink} (${o.type} → ${o.target}) ${status} ${o.ms} ms`);
  }
}
