// Before the worker sends an entry: is it still wanted? An escalation whose session was answered
// is cancelled; a "when": "away" delivery asks the presence probes and is skipped while the person
// is at the session's terminal (unknown sends: never drop a notification on a guess); a digest
// sink's delivery is held for the digest while they say away. An escalation's follow-up is
// cancelled once the session was answered or the notification opened, and skipped while the
// person is at the session's terminal.
import { answeredAt, notificationKey } from "../escalation/answers.js";
import { withDeadline } from "../abort.js";
import type { Deps } from "../deps.js";
import { probePresence, type Presence, type PresenceInput } from "../presence/probe.js";
import { PRESENCE_ENV_KEYS } from "../presence/gate-env.js";
import type { OutboxEntry } from "../outbox/store.js";
import type { PresenceBrief } from "../journal/run-attempt.js";
import type { PresenceGate } from "../presence/gate-env.js";

export type GateVerdict =
  | { send: true; presence?: PresenceBrief }
  | {
      send: false;
      /** held: a digest sink while away (delivery/digest.ts keeps it for the digest). */
      outcome: "cancelled" | "skipped" | "held";
      rule: string;
      message: string;
      presence?: PresenceBrief;
    };

/** Answers asked for within one drain, by gate: entries of one hook share one probe. */
export type PresenceCache = Map<string, Promise<PresenceBrief>>;

export async function checkGate(
  entry: OutboxEntry,
  deps: Deps,
  cache: PresenceCache,
): Promise<GateVerdict> {
  const wait = entry.escalation;
  if (wait) {
    const prompt = answeredAt(deps, wait.session, "prompt");
    const moved =
      wait.cancelOn === "prompt-or-moved" ? answeredAt(deps, wait.session, "moved") : undefined;
    const of = entry.notification.followUp?.of;
    const opened = of === undefined ? undefined : answeredAt(deps, notificationKey(of), "opened");
    const answered = Math.max(prompt ?? 0, moved ?? 0, opened ?? 0);
    if (answered > wait.since) {
      const how =
        answered === prompt
          ? "the session got a new prompt"
          : answered === opened
            ? "the notification was opened"
            : "the agent went on";
      const message = `answered: ${how} ${String(Math.round((answered - wait.since) / 1000))} s after the notification`;
      return { send: false, outcome: "cancelled", rule: "escalate", message };
    }
  }
  if (!entry.presence) return { send: true };
  const key = JSON.stringify(entry.presence);
  let asked = cache.get(key);
  if (!asked) {
    asked = askPresence(entry.presence, deps);
    cache.set(key, asked);
  }
  const presence = await asked;
  if (entry.digest && presence.state === "away") {
    const message = `away: ${presence.probe}: ${presence.detail}`;
    return { send: false, outcome: "held", rule: "digest", message, presence };
  }
  const awayOnly = entry.digest?.awayOnly ?? true;
  if (presence.state !== "present" || !awayOnly) return { send: true, presence };
  const message = `present: ${presence.probe}: ${presence.detail}`;
  const rule = entry.escalation ? "escalate" : "when: away";
  return { send: false, outcome: "skipped", rule, message, presence };
}

/** Whom to ask about, and how long idle counts as away; the bound is presenceNow's. */
export type PresenceQuestion = Omit<PresenceInput, "signal">;

/** The longest anyone waits for the probes (each probe also has its own, shorter bound). */
const PRESENCE_WAIT_MS = 10_000;

// THE question "is the person away?": the worker's gate and digests, --wait and test, --dry-run,
// approve and doctor all ask here (test/architecture/delivery-home.test.ts keeps it the one
// place), within one bound and the caller's signal (approve's shorter wait, a run's budget).
export async function presenceNow(
  question: PresenceQuestion,
  signal?: AbortSignal,
): Promise<Presence> {
  return withDeadline(
    PRESENCE_WAIT_MS,
    (bound) => probePresence({ ...question, signal: bound }),
    signal,
  );
}

// The probes run with the hook's display and tmux variables over the worker's own environment.
export async function askPresence(gate: PresenceGate, deps: Deps): Promise<PresenceBrief> {
  if (gate.forced === "away")
    return { state: "away", probe: "forced", detail: "test --away", ms: 0 };
  const hookKeys = new Set<string>(PRESENCE_ENV_KEYS);
  const env = Object.fromEntries(Object.entries(deps.env).filter(([key]) => !hookKeys.has(key)));
  const presence = await presenceNow({
    env: { ...env, ...gate.env },
    pid: gate.pids[0] ?? 0,
    pids: gate.pids,
    idleSeconds: gate.idleSeconds,
    platform: deps.platform,
    now: deps.now(),
  });
  return brief(presence);
}

export function brief(presence: Presence): PresenceBrief {
  const { state, probe, detail, ms, idleSeconds } = presence;
  return { state, probe, detail, ms, ...(idleSeconds === undefined ? {} : { idleSeconds }) };
}
