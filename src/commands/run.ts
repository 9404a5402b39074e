import { writeSync } from "node:fs";
import { dirname } from "node:path";
import { createDeps, type Deps } from "../deps.js";
import type { ErrorCode } from "../errors.js";
import type { Client } from "../core/hook-event.js";
import type { Suppressed } from "../pipeline/policy.js";
import type { Held, RoutedDelivery } from "../delivery/plan.js";
import type { Presence } from "../presence/probe.js";
import { logPath } from "../config/paths.js";
import { appendRunSomewhere, startRecord } from "../journal/append.js";
import { textInput, type InputSource } from "../input-source.js";
import { hookBudget } from "../pipeline/deadline.js";
import { runHook, type HookRun, type WorkerLink } from "../pipeline/run-hook.js";
import { inert } from "../inert-output.js";
import { muteStdout } from "./mute-stdout.js";
import { startDetached } from "../link/start-detached.js";
import { scrubValue } from "../redact.js";
import { endHook, exitWhenDone } from "../exit.js";

export interface RunArgs {
  config?: string | undefined;
  /** The budget the client gives this hook entry, in seconds. */
  timeout?: number | undefined;
  client?: Client | undefined;
  /** The event's name when the payload has none (Copilot CLI's entries pass --event). */
  event?: string | undefined;
  /** The event as an argument (Codex's notify program), read instead of stdin. */
  payload?: string | undefined;
  dryRun: boolean;
  wait: boolean;
  /** Flags the hook does not know, as written (hook-argv.ts): the run refuses them. */
  unknownFlags?: readonly string[] | undefined;
}

/** What the fast path (fast-hook.ts) hands over when the live worker cannot take the event. */
export interface Handover {
  /** The event as read so far (and the rest of stdin after it), instead of stdin. */
  input?: InputSource | undefined;
  /** When the hook started (ms since the epoch): the --timeout budget counts from here. */
  started?: number | undefined;
}

const UNUSABLE: readonly ErrorCode[] = [
  "INPUT_EMPTY",
  "INPUT_TIMEOUT",
  "INPUT_TOO_LARGE",
  "INPUT_INVALID",
  "CONFIG_INVALID",
  "CONFIG_UNREADABLE",
];

// The hook command: never exit 2, never a byte on stdout in hook mode, never past --timeout.
export async function runCommand(args: RunArgs, handover: Handover = {}): Promise<void> {
  if (args.unknownFlags !== undefined && args.unknownFlags.length > 0) {
    // A typo (`--dry-rn`) must never send for real: refused before stdin is read. Exit 1, as
    // every hook failure: 2 would block a Stop.
    const { unknownFlagMessage } = await import("../did-you-mean.js");
    const { RUN_FLAGS } = await import("./run-flags.js");
    const known = [...Object.keys(RUN_FLAGS), "help", "version", "color", "no-color"];
    for (const flag of args.unknownFlags) console.error(unknownFlagMessage(flag, known));
    console.error("hook-notify: nothing was sent. The hook's options: hook-notify help run");
    exitWhenDone(1);
    return;
  }
  const mode = args.dryRun ? "dry-run" : args.wait ? "wait" : "hook";
  const started = handover.started ?? Date.now();
  const budget = hookBudget(started, args.timeout);
  const deps = createDeps(args.payload === undefined ? handover.input : textInput(args.payload));
  // Filled in by runHook as it goes; logged here if the safety net ends the run first.
  const run: HookRun = { record: startRecord(started) };
  let finished = false;
  installSafetyNet(mode, budget.hardDeadline, (code) => {
    if (!finished && mode !== "dry-run") logCutShort(run, deps, code);
  });
  if (deps.stdin.isTTY) {
    // A person who typed `hook-notify` to get started: the three first steps, not a wait on stdin.
    console.error(
      [
        "hook-notify runs as your coding agent's hook (it reads one event on stdin). First time?",
        "  hook-notify install   add it to your agents' hooks (shows the change, asks first)",
        "  hook-notify test      send a sample notification to every sink",
        "  hook-notify doctor    check that notifications can work here",
        "All commands: hook-notify --help",
      ].join("\n"),
    );
    endHook(1);
  }
  await runHook(deps, {
    configPath: args.config,
    client: args.client,
    event: args.event,
    mode,
    deadline: budget.deadline,
    explicitTimeout: args.timeout !== undefined,
    run,
    link: hookLink(deps, args, started, mode === "hook"),
  });
  finished = true;
  // Once per version of the config file (config-notice.ts), also when a worker has the event.
  if (mode === "hook") for (const line of run.configNotice ?? []) say(`hook-notify: ${line}`);
  if (run.handedOver) endHook(0);
  if (deps.env.HOOK_NOTIFY_DEBUG === "1") console.error(JSON.stringify(run.record));
  const failed = report(run, mode, deps);
  if (mode === "hook") endHook(failed ? 1 : 0);
  exitWhenDone(failed ? 1 : 0);
}

// What a run of the hook queued is sent by a worker: one is started, or the live one is asked
// (link/spawn.ts, loaded only when something was queued).
export async function startWorkerFor(deps: Deps): Promise<void> {
  const { startWorker } = await import("../link/spawn.js");
  await startWorker(deps);
}

// The run's seam to the worker (run-hook.ts WorkerLink). Every hook hands its event to a worker
// (src/link/PROTOCOL.md); HOOK_NOTIFY_FAST=0 keeps the whole run in the hook, as before the
// worker ran events (a way to rule the link out), and so do --wait and --dry-run. The notify
// tool (mcp-run.ts) hands its events over the same way.
export function hookLink(deps: Deps, args: RunArgs, started: number, hands: boolean): WorkerLink {
  const handOver =
    hands && deps.env.HOOK_NOTIFY_FAST !== "0"
      ? async (raw: string, secrets: readonly string[]): Promise<string> => {
          const { handOverEvent } = await import("../link/hand-over.js");
          const { config, timeout, client, event } = args;
          const handed = { config, timeout, client, event };
          return handOverEvent(deps, { raw, secrets, args: handed, started });
        }
      : undefined;
  return { handOver, whenQueued: startWorkerFor };
}

// Prints what the mode calls for; returns true when the run should exit 1.
function report(run: HookRun, mode: "hook" | "wait" | "dry-run", deps: Deps): boolean {
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

function printPlan(run: HookRun, deps: Deps): void {
  const secrets = run.config?.secrets ?? [];
  const lines: string[] = [];
  // A delivery a noise rule held back prints the same line, saying which rule and why, and one
  // held for subagent coalescing says so; the lines keep the config's order.
  const order = Object.keys(run.config?.value.sinks ?? {});
  const held = (run.plan?.held ?? []).map((d: Held) => ({ ...d, coalesce: d.reason }));
  const planned: (RoutedDelivery & Partial<Suppressed> & { coalesce?: string })[] = [
    ...(run.plan?.deliveries ?? []),
    ...(run.plan?.suppressed ?? []),
    ...held,
  ].sort((a, b) => order.indexOf(a.entry.name) - order.indexOf(b.entry.name));
  for (const { entry, sink, notification, rule, reason, coalesce } of planned) {
    const line = {
      sink: entry.name,
      type: entry.type,
      target: sink.describeTarget(entry.options),
      event: notification.event,
      failure: notification.failure,
      title: notification.title,
      body: notification.body,
      payload: sink.render(notification, entry.options, deps),
      ...(rule ? { suppressed: `${rule}: ${reason ?? ""}` } : {}),
      ...(coalesce ? { coalesce } : {}),
      ...(entry.when === "away" && !rule ? awayLine(run.presence) : {}),
    };
    lines.push(JSON.stringify(scrubValue(line, secrets)));
  }
  for (const escalation of run.escalations ?? []) {
    const { sinkName, afterSeconds, notification } = escalation;
    const line = {
      sink: sinkName,
      escalate: `after ${String(afterSeconds)} s unless the session is answered (its next prompt)`,
      id: notification.id,
      title: notification.title,
    };
    lines.push(JSON.stringify(scrubValue(line, secrets)));
  }
  printLines(lines);
}

// The "when": "away" rule and the presence answer it would use now (the worker asks again).
function awayLine(presence: Presence | undefined) {
  if (!presence) return { rule: "when: away" };
  const { state, probe, detail, idleSeconds, ms } = presence;
  const readings = presence.readings.map((r) => `${r.probe}: ${r.detail}`);
  return {
    rule: "when: away",
    presence: {
      state,
      probe,
      detail,
      ...(idleSeconds === undefined ? {} : { idleSeconds }),
      ms,
      readings,
    },
    wouldSend: state !== "present",
  };
}

// One write to fd 1 (made inert like every other output): building console and process.stdout
// costs a few ms that a person piping --dry-run into jq need not wait for. A full non-blocking pipe
// falls back to the stream.
function printLines(lines: readonly string[], fd: 1 | 2 = 1): void {
  if (lines.length === 0) return;
  const text = `${lines.join("\n")}\n`;
  try {
    writeSync(fd, inert(text));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EAGAIN") return;
    if (fd === 1) process.stdout.write(text);
    else process.stderr.write(text);
  }
}

// One line to stderr, as printLines writes stdout: console.error would build process.stderr and
// the ~20 stream modules behind it (~15 M instructions) for a line or two.
function say(line: string): void {
  printLines([line], 2);
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

// The one log line of a run the safety net ends: what the run knew so far, and why it ended.
export function logCutShort(
  run: HookRun,
  deps: Pick<Deps, "env" | "homedir" | "platform" | "now">,
  code: ErrorCode,
): void {
  run.record.error ??= {
    code,
    message:
      code === "HOOK_DEADLINE"
        ? "the run reached its --timeout budget and was ended (a slow disk or an overloaded machine?)"
        : "the run failed unexpectedly and was ended",
  };
  run.record.ms = deps.now() - Date.parse(run.record.time);
  appendRunSomewhere(run.record, logPath(deps), run.config?.secrets ?? []);
}

// Last resort: whatever goes wrong, the process exits 0 or 1 by the deadline and prints nothing to stdout.
function installSafetyNet(
  mode: "hook" | "wait" | "dry-run",
  hardDeadline: number,
  logCutShort: (code: ErrorCode) => void,
): void {
  if (mode === "hook") muteStdout();
  const bail = (code: ErrorCode): void => {
    try {
      logCutShort(code);
      // What this run wrote whole before its budget ran out is adopted by a worker (PROTOCOL.md,
      // "orphans"), started now in case none lives to look.
      if (mode === "hook" && code === "HOOK_DEADLINE") startDetached(process.env, process.cwd());
    } finally {
      endHook(mode === "hook" ? 0 : 1);
    }
  };
  process.on("uncaughtException", () => {
    bail("INTERNAL");
  });
  process.on("unhandledRejection", () => {
    bail("INTERNAL");
  });
  setTimeout(
    () => {
      bail("HOOK_DEADLINE");
    },
    Math.max(0, hardDeadline - Date.now()),
  ).unref();
}
