import { loadConfig, type LoadedConfig } from "../config/load-config.js";
import { logPath } from "../config/paths.js";
import type { Deps } from "../deps.js";
import { toHookNotifyError } from "../errors.js";
import { formatNotification } from "../message/format.js";
import { newNotificationId } from "../core/notification-id.js";
import type { Notification } from "../core/notification.js";
import { scrub, scrubValue } from "../redact.js";
import { deliverBudgetMs, eventDeadline, inputWaitMs } from "./deadline.js";
import { dispatch, type WhenQueued } from "../delivery/dispatch.js";
import { gatherContext } from "./gather-context.js";
import type { EventContext } from "../core/event-context.js";
import type { Client, HookEvent } from "../core/hook-event.js";
import { parseEvent } from "./parse-event.js";
import { dryRunPresence, policyFacts, readDndFor } from "./run-facts.js";
import { describeRun, escalationRecord, noteNewType } from "./describe-run.js";
import { applyPolicy, type PolicyPlan } from "./policy.js";
import { readInput } from "./read-input.js";
import { applyDnd } from "./dnd.js";
import { appendRunSomewhere, startRecord } from "../journal/append.js";
import type { RunRecord } from "../journal/line.js";
import { route } from "./route.js";
import {
  escalationsOf,
  noteAnswer,
  noteMovedOn,
  withoutQuietFollowUps,
} from "./escalation-steps.js";
import type { PlannedEscalation } from "../escalation/plan.js";
import type { Presence } from "../presence/probe.js";
import { MAX_EVENT_BYTES } from "../core/defaults.js";
import { absoluteFrom } from "../path-join.js";

export interface HookOptions {
  configPath?: string | undefined;
  client?: Client | undefined;
  /** The event's name for a payload without one (--event). */
  event?: string | undefined;
  /** The notification's id when the event came with one (a worker's run of a hook's event:
   * link/inbox.ts); a new one otherwise. The repeat rules' markers it claimed are its own. */
  notificationId?: string | undefined;
  /** "hook": deliver and log; "wait": deliver in the foreground; "dry-run": plan only. */
  mode: "hook" | "wait" | "dry-run";
  /** When the whole run must be over (ms since the epoch). */
  deadline: number;
  /** False when the client gave no --timeout: a SessionEnd then gets Claude Code's 1.5 s. */
  explicitTimeout: boolean;
  /** The run to fill in; the caller keeps it to log a run that the deadline cuts short. */
  run?: HookRun | undefined;
  /** The one seam to the worker, given by the caller: the pipeline imports no link/ or outbox/. */
  link: WorkerLink;
}

/** How a run reaches the worker (link/, src/link/PROTOCOL.md), as ports its caller fills in. */
export interface WorkerLink {
  /** Hook mode: once the event reads and the config loads, give the event to a worker
   * (link/hand-over.ts); "handed" ends the run here, and the worker logs it. */
  handOver?: ((raw: string, secrets: readonly string[]) => Promise<string>) | undefined;
  /** Who sends what the run queued (delivery/dispatch.ts). */
  whenQueued: WhenQueued;
}

/** What one run did; the record is what goes to the log. */
export interface HookRun {
  record: RunRecord;
  config?: LoadedConfig | undefined;
  notification?: Notification | undefined;
  plan?: PolicyPlan | undefined;
  /** Follow-ups this notification schedules unless the session is answered in time. */
  escalations?: PlannedEscalation[] | undefined;
  /** --dry-run with a "when": "away" sink: what the presence probes say now. */
  presence?: Presence | undefined;
  /** Where the run's log line went: the log, a fallback in the temp dir, or nowhere. */
  loggedTo?: string | undefined;
  /** A worker has the event now: it runs and logs it. */
  handedOver?: boolean | undefined;
  /** This run announced the config's problems (once per version of the file): the lines. */
  configNotice?: string[] | undefined;
}

// Reads one hook event and notifies: the whole pipeline in one straight line. Never throws.
export async function runHook(deps: Deps, options: HookOptions): Promise<HookRun> {
  const run: HookRun = options.run ?? { record: startRecord(deps.now()) };
  try {
    const waitMs = inputWaitMs(options.deadline - deps.now());
    const raw = await readInput(deps.stdin, {
      maxBytes: MAX_EVENT_BYTES,
      idleMs: waitMs,
      totalMs: waitMs,
    });
    const event = parseEvent(raw, options.client, options.event);
    if ("ignored" in event) {
      run.record.ignored = event.ignored;
      if (event.ignored === "UserPromptSubmit" && options.mode !== "dry-run")
        run.record.session = noteAnswer(raw, deps);
    } else {
      const deadline = eventDeadline(options.deadline, Date.parse(run.record.time), {
        name: event.name,
        explicitTimeout: options.explicitTimeout,
      });
      const context = gatherContext(event, deps, options.client);
      run.config = loadConfig(deps, {
        configPath: options.configPath,
        projectDir: context.projectDir,
      });
      if (options.mode === "hook" && (run.config.error || run.config.issues.length > 0)) {
        const { announceConfigProblems } = await import("./config-notice.js");
        run.configNotice = await announceConfigProblems(run.config, deps);
      }
      const { handOver } = options.link;
      if (handOver && !run.config.error) {
        const result = await handOver(raw, run.config.secrets);
        if (result === "handed") {
          run.handedOver = true;
          return run;
        }
        run.record.kept = result;
      }
      const { value } = run.config;
      let forceAway = false;
      // The agent's text may quote a configured secret (the webhook URL it was given): it is
      // masked here, before the notification is cut to length, stored or sent.
      const told = scrubValue({ event, context }, run.config.secrets) as {
        event: HookEvent;
        context: EventContext;
      };
      run.notification = formatNotification(told.event, told.context, {
        templates: value.templates,
        maxBodyLength: value.maxBodyLength,
        id: options.notificationId ?? newNotificationId(),
        now: deps.now(),
      });
      describeRun(run.record, event, run.notification, run.config);
      if (options.mode !== "dry-run") noteNewType(run.record, event, deps);
      const planned = route(run.notification, value);
      const facts = policyFacts(deps, event, context, options.mode, run.notification.id);
      run.plan = applyPolicy(planned, event, value, facts);
      const dnd = await readDndFor(run.plan, value.dnd, deps);
      if (dnd) {
        run.record.dnd = dnd.detail;
        ({ plan: run.plan, forceAway } = applyDnd(run.plan, value.dnd, dnd));
      }
      const followUps = withoutQuietFollowUps(
        escalationsOf(run.notification, value, run.plan),
        value,
        deps.now(),
      );
      run.record.skipped = [...run.plan.skipped, ...followUps.skipped];
      run.escalations = followUps.escalations;
      if (options.mode === "dry-run") run.presence = await dryRunPresence(run.plan, deps);
      else {
        noteMovedOn(run.notification, value, deps);
        run.record.outcomes = await dispatch(run.plan.deliveries, {
          deps,
          budgetMs: deliverBudgetMs(deadline, deps.now()),
          wait: options.mode === "wait",
          secrets: run.config.secrets,
          // The file this run read, absolute: a worker sends the entries later, from its own
          // folder and with its own HOOK_NOTIFY_CONFIG.
          configPath: absoluteFrom(
            deps.cwd,
            options.configPath || deps.env.HOOK_NOTIFY_CONFIG || undefined,
          ),
          projectDir: run.config.projectPath ? context.projectDir : undefined,
          held: run.plan.held,
          maxBodyLength: value.maxBodyLength,
          escalations: run.escalations,
          forceAway,
          whenQueued: options.link.whenQueued,
          replySink: waitsForPrompt(run.notification) ? value.replySink : undefined,
        });
        if (run.escalations.length > 0)
          run.record.escalations = run.escalations.map(escalationRecord);
      }
    }
  } catch (error) {
    const known = toHookNotifyError(error);
    run.record.error = {
      code: known.code,
      message: scrub(known.message, run.config?.secrets ?? []),
    };
  }
  run.record.ms = deps.now() - Date.parse(run.record.time);
  if (options.mode !== "dry-run") {
    run.loggedTo = appendRunSomewhere(run.record, logPath(deps), run.config?.secrets ?? []);
  }
  return run;
}

// A turn's end or an idle prompt: the agent waits for its next prompt, which a typed reply can
// give it (replySink, src/reply/PROTOCOL.md). Not a subagent's end, not a permission prompt.
function waitsForPrompt(notification: Notification): boolean {
  if (notification.event === "Stop") return true;
  return (
    notification.event === "Notification" && notification.raw.notification_type === "idle_prompt"
  );
}
