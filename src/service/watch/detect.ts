// What changed since the last poll, as facts to announce. Pure: the previous state and what the
// service says now in, the facts and the next state out. A first poll (no previous state) is the
// baseline and announces nothing.
import type { Computer, ControlChange, Session } from "../schemas.js";
import { diffSettings, type SettingChange } from "./diff-settings.js";
import type { SeenComputer, SeenSession } from "./state.js";

export interface SessionIdleFact {
  kind: "SessionIdle";
  sessionId: string;
  title?: string | undefined;
  from: string;
  messageCount?: number | undefined;
}

export interface ComputerFact {
  kind: "ComputerError" | "ComputerRecovered";
  computerId: string;
  name: string;
  status?: string | undefined;
  /** The failed provisioning steps: name and error. */
  failedSteps: { name: string; error?: string | undefined }[];
}

export interface ControlsFact {
  kind: "ControlsChanged";
  revision: number;
  user?: string | undefined;
  updatedAt?: string | undefined;
  changes: SettingChange[];
}

const BUSY = new Set(["running", "pending"]);

// running or pending → idle, for sessions seen before; new sessions are only recorded.
export function detectSessions(
  previous: Record<string, SeenSession> | undefined,
  sessions: readonly Session[],
): { facts: SessionIdleFact[]; next: Record<string, SeenSession> } {
  const next: Record<string, SeenSession> = {};
  const facts: SessionIdleFact[] = [];
  for (const session of sessions) {
    const before = previous?.[session.sessionId];
    next[session.sessionId] = { status: session.status, updatedAt: session.updatedAt };
    if (session.status === undefined && before) next[session.sessionId] = before;
    if (before?.status && BUSY.has(before.status) && session.status === "idle") {
      facts.push({
        kind: "SessionIdle",
        sessionId: session.sessionId,
        title: session.title?.trim() || undefined,
        from: before.status,
        messageCount: session.messageCount,
      });
    }
  }
  return { facts, next };
}

const FAILED_STEP = /^(failed|failure|error|errored)$/i;
const DONE_STEP = /^(completed|complete|succeeded|success|done|skipped)$/i;

// A step failed when its status says so, or when it carries an error and did not finish well.
// (The document does not list the step statuses.)
export function failedStepsOf(computer: Computer): { name: string; error?: string | undefined }[] {
  return (computer.provisioningSteps ?? [])
    .filter((step) => {
      const status = step.status ?? "";
      return FAILED_STEP.test(status) || (!!step.error && !DONE_STEP.test(status));
    })
    .map((step) => ({ name: step.name ?? step.id ?? "step", error: step.error ?? undefined }));
}

// Error (status error, or a newly failed step) and recovery (back to active with no failed step).
export function detectComputers(
  previous: Record<string, SeenComputer> | undefined,
  computers: readonly Computer[],
): { facts: ComputerFact[]; next: Record<string, SeenComputer> } {
  const next: Record<string, SeenComputer> = {};
  const facts: ComputerFact[] = [];
  for (const computer of computers) {
    const failed = failedStepsOf(computer);
    const troubledNow = computer.status === "error" || failed.length > 0;
    const healthy = !troubledNow && computer.status !== "provisioning";
    const before = previous?.[computer.id];
    const fact = {
      computerId: computer.id,
      name: computer.name ?? computer.id,
      status: computer.status ?? undefined,
      failedSteps: failed,
    };
    const names = failed.map((step) => step.name);
    const newStep = names.some((name) => !before?.failedSteps.includes(name));
    if (previous && troubledNow && (!before?.troubled || newStep)) {
      facts.push({ kind: "ComputerError", ...fact });
    } else if (previous && before?.troubled && healthy) {
      facts.push({ kind: "ComputerRecovered", ...fact });
    }
    // While it provisions again after an error, it stays "troubled" until it is active.
    next[computer.id] = {
      troubled: troubledNow || (!!before?.troubled && !healthy),
      failedSteps: names,
    };
  }
  return { facts, next };
}

// The revisions after `lastSeen`, oldest first, each with its diff against the one before.
// `history` is newest first and reaches one revision past lastSeen when there is one.
export function detectControls(
  lastSeen: number | undefined,
  history: readonly ControlChange[],
): { facts: ControlsFact[]; next: number | undefined } {
  const newest = history[0]?.revision;
  if (lastSeen === undefined || newest === undefined)
    return { facts: [], next: newest ?? lastSeen };
  const facts: ControlsFact[] = [];
  for (let i = history.length - 1; i >= 0; i--) {
    const change = history[i];
    if (!change || change.revision <= lastSeen) continue;
    const before = history[i + 1]?.settings ?? {};
    facts.push({
      kind: "ControlsChanged",
      revision: change.revision,
      user: change.user?.name ?? change.user?.email ?? change.user?.id,
      updatedAt: change.updatedAt,
      changes: diffSettings(before, change.settings ?? {}),
    });
  }
  return { facts, next: Math.max(newest, lastSeen) };
}
