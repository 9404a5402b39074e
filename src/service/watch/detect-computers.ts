// What changed on the cloud computers since the last poll, as facts to announce: one went into
// error or recovered (detect-controls.ts does the same for the settings). Pure: the previous state
// and what the service says now in, the facts and the next state out. A first poll (no previous
// state) is the baseline and announces nothing.
import type { Computer } from "../schemas.js";
import type { SeenComputer } from "./state.js";
import { own, setOwn } from "../../own.js";

/** A provisioning step that failed. */
export interface FailedStep {
  name: string;
  error?: string | undefined;
  installSessionId?: string | undefined;
}

export interface ComputerFact {
  kind: "ComputerError" | "ComputerRecovered";
  computerId: string;
  name: string;
  status?: string | undefined;
  /** The failed provisioning steps: name, error, and the session that ran the install. */
  failedSteps: FailedStep[];
  /** The last messages of the failed step's install session (filled by the poll). */
  installMessages?: string[] | undefined;
}

const FAILED_STEP = /^(failed|failure|error|errored)$/i;
const DONE_STEP = /^(completed|complete|succeeded|success|done|skipped)$/i;

// A step failed when its status says so, or when it carries an error and did not finish well.
// (The document does not list the step statuses.)
export function failedStepsOf(computer: Computer): FailedStep[] {
  return (computer.provisioningSteps ?? [])
    .filter((step) => {
      const status = step.status ?? "";
      return FAILED_STEP.test(status) || (!!step.error && !DONE_STEP.test(status));
    })
    .map((step) => ({
      name: step.name ?? step.id ?? "step",
      error: step.error ?? undefined,
      ...(step.installSessionId ? { installSessionId: step.installSessionId } : {}),
    }));
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
    const before = previous && own(previous, computer.id);
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
    setOwn(next, computer.id, {
      troubled: troubledNow || (!!before?.troubled && !healthy),
      failedSteps: names,
    });
  }
  return { facts, next };
}
