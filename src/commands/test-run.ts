// `hook-notify test`'s work: a sample event through parse → context → config → format, then every
// chosen sink in the foreground (remote ones direct, not via the outbox). The run is logged like a
// hook's, marked "via": "test", so `hook-notify log` shows it too.
import { loadConfig, type LoadedConfig } from "../config/load-config.js";
import type { SinkEntry } from "../core/config.js";
import type { Deps } from "../deps.js";
import type { Notification } from "../core/notification.js";
import { formatNotification } from "../message/format.js";
import { newNotificationId } from "../core/notification-id.js";
import { dispatch } from "../delivery/dispatch.js";
import type { RunAttempt } from "../journal/run-attempt.js";
import { gatherContext } from "../pipeline/gather-context.js";
import { parseEvent } from "../pipeline/parse-event.js";
import { switchedOff, unknownType } from "../pipeline/route.js";
import type { RoutedDelivery } from "../delivery/plan.js";
import { findSink } from "../sinks/index.js";
import { planEscalations } from "../escalation/plan.js";
import { TEST_EVENTS } from "../core/hook-event.js";
import { logPath } from "../config/paths.js";
import { appendJournal, startRecord } from "../journal/append.js";
import { startWorkerFor } from "./run.js";

export { TEST_EVENTS };
export type TestEvent = (typeof TEST_EVENTS)[number];

export interface TestOptions {
  event: TestEvent;
  failure: boolean;
  /** Only this sink (its name in the config). */
  sink?: string | undefined;
  configPath?: string | undefined;
  /** Take the away path: "when": "away" sinks send without asking, escalations are queued. */
  away?: boolean | undefined;
}

/** One sink's row: an outcome, or the reason it was not sent. */
export interface TestRow {
  entry: SinkEntry;
  outcome?: RunAttempt | undefined;
  skipped?: string | undefined;
}

export interface TestResult {
  config: LoadedConfig;
  rows: TestRow[];
  /** Sinks left out because a ${VAR} they use is not set here (only the one --sink names). */
  unset: { sink: string; variables: string[] }[];
  /** Set when --sink names no configured sink. */
  unknownSink?: string | undefined;
}

const BUDGET_MS = 60_000;

// Sends one sample notification to each configured sink (or the one named) and waits for each.
export async function runTest(deps: Deps, options: TestOptions): Promise<TestResult> {
  const started = deps.now();
  const parsed = parseEvent(JSON.stringify(sampleEvent(options, deps.cwd)));
  if ("ignored" in parsed) throw new Error(`sample event ${parsed.ignored} is not handled`);
  const context = gatherContext(parsed, deps);
  const config = loadConfig(deps, {
    configPath: options.configPath,
    projectDir: context.projectDir,
  });
  if (config.error) return { config, rows: [], unset: [] };
  const entries = Object.values(config.value.sinks);
  const chosen = options.sink ? entries.filter((e) => e.name === options.sink) : entries;
  const unset = Object.entries(config.unresolved)
    .filter(([sink]) => options.sink === undefined || sink === options.sink)
    .map(([sink, variables]) => ({ sink, variables }));
  if (options.sink && chosen.length === 0 && unset.length === 0)
    return { config, rows: [], unset, unknownSink: options.sink };
  const notification = formatNotification(parsed, context, {
    templates: config.value.templates,
    maxBodyLength: config.value.maxBodyLength,
    id: newNotificationId(),
    now: deps.now(),
  });
  const rows: TestRow[] = [];
  const deliveries: RoutedDelivery[] = [];
  for (const entry of chosen) {
    const sink = findSink(entry.type);
    // A sink named with --sink is tested even when switched off.
    const skipped = !sink
      ? unknownType(entry)
      : options.sink === undefined && switchedOff(entry, config.value)
        ? "turned off (enabled: false)"
        : undefined;
    if (sink && !skipped) deliveries.push({ entry, sink, notification });
    rows.push({ entry, skipped });
  }
  const outcomes = await dispatch(deliveries, {
    deps,
    budgetMs: BUDGET_MS,
    wait: true,
    secrets: config.secrets,
    configPath: options.configPath,
    forceAway: options.away,
    escalations: options.away
      ? planEscalations(
          notification,
          config.value,
          deliveries.map((d) => d.entry.name),
        )
      : [],
    whenQueued: startWorkerFor,
  });
  for (const row of rows) row.outcome = outcomes.find((o) => o.sink === row.entry.name);
  logTestRun(deps, { started, event: parsed.name, notification, outcomes, config });
  return { config, rows, unset };
}

// One log line for the run, as a hook's (secrets masked), marked "via": "test".
function logTestRun(
  deps: Deps,
  run: {
    started: number;
    event: string;
    notification: Notification;
    outcomes: RunAttempt[];
    config: LoadedConfig;
  },
): void {
  const { notification, config } = run;
  appendJournal(
    logPath(deps),
    {
      ...startRecord(run.started),
      ms: deps.now() - run.started,
      via: "test",
      event: run.event,
      client: notification.client,
      failure: notification.failure,
      project: notification.project,
      id: notification.id,
      outcomes: run.outcomes,
      issues: config.issues,
    },
    config.secrets,
  );
}

// A hook payload as a client would send it, in the current folder, clearly marked as a test.
export function sampleEvent(options: TestOptions, cwd: string): Record<string, unknown> {
  const base = { session_id: "hook-notify-test", cwd };
  const note = "This is a test notification from hook-notify test.";
  switch (options.event) {
    case "Notification":
      return { ...base, hook_event_name: "Notification", message: note };
    case "Stop":
      return options.failure
        ? { ...base, hook_event_name: "StopFailure", error: "test", error_details: note }
        : { ...base, hook_event_name: "Stop", last_assistant_message: note };
    case "SubagentStop":
      return { ...base, hook_event_name: "SubagentStop", last_assistant_message: note };
    case "SessionEnd":
      return { ...base, hook_event_name: "SessionEnd", reason: options.failure ? "error" : "test" };
  }
}
