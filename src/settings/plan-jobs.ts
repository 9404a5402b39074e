import { parse } from "jsonc-parser";
import type { Client } from "../core/hook-event.js";
import { checkText } from "./jsonc-policy.js";
import { parseSettings } from "./read.js";
import { eventsWithOurs } from "./double-runs.js";
import type { FileShape, Target } from "../core/install-target.js";
import {
  planInstall,
  planUninstall,
  type Before,
  type Desired,
  type SettingsPlan,
} from "./plan.js";
import { planWrapperInstall, planWrapperUninstall } from "./plan-wrapper.js";
import { shapeOf } from "./shapes.js";

/** One planned step on one file: the wanted text, what it means, and why it cannot go ahead. */
export interface Step {
  next: string | undefined;
  summary: string[];
  conflicts: string[];
  warnings: string[];
}

/** One file install or uninstall touches; `plan` is pure and is re-run under the file's lock. */
export interface FileJob {
  client: Client;
  file: string;
  shown: string;
  /** A settings file (its hooks' shape): backed up, and its .bak read back by uninstall. */
  shape?: FileShape;
  /** The wrapper: created executable, never backed up, its folder removed once empty. */
  isWrapper?: boolean;
  /** Uninstall: remove the file's .bak once the file holds again what the .bak holds. */
  dropsSpentBackup?: boolean;
  /** `backup` is the text of the file's .bak, if there is one. */
  plan: (current: string | undefined, backup?: string) => Step;
}

/** What the jobs need besides the target. */
export interface JobInput {
  target: Target;
  shown: (file: string) => string;
  fixJsonc: boolean;
  /** Copilot CLI's own file is written per platform (bash, or PowerShell on Windows). */
  platform?: NodeJS.Platform;
}

// Install touches the wrapper, Droid's legacy settings.json (our entries move out), then the hooks file.
export function installJobs(input: JobInput, desired: Desired, wrapper: string): FileJob[] {
  const { target } = input;
  const jobs: FileJob[] = [];
  if (target.wrapper !== undefined) {
    const shown = input.shown(target.wrapper.path);
    jobs.push({
      client: target.client,
      file: target.wrapper.path,
      shown,
      isWrapper: true,
      plan: (current) => fromWrapper(planWrapperInstall(current, wrapper, shown)),
    });
  }
  if (target.legacyFile !== undefined) {
    jobs.push(legacyJob(input, target.legacyFile, [...desired.keys()], "moved to hooks.json"));
  }
  jobs.push(shapeOf(target.shape).installJob(input, desired));
  return jobs;
}

// Install on a JSON hooks file edited where it stands (the settings and bare shapes).
export function editedInstallJob(input: JobInput, desired: Desired): FileJob {
  const { shape } = input.target;
  return hooksFileJob(input, (text, shown) =>
    planInstall(text, desired, { shape, shown, mayDelete: false }),
  );
}

// Uninstall on a JSON hooks file edited where it stands: only our entries go.
export function editedUninstallJob(
  input: JobInput,
  events: readonly string[] | undefined,
): FileJob {
  const { shape } = input.target;
  return hooksFileJob(input, (text, shown, before) =>
    planUninstall(text, events, { shape, shown, mayDelete: true }, before),
  );
}

// The client's hooks file: its text checked for the client (JSON, JSONC, shape), then planned.
export function hooksFileJob(
  input: JobInput,
  planText: (
    text: string | undefined,
    shown: string,
    before: Before | undefined,
  ) => ReturnType<typeof planInstall>,
): FileJob {
  const { target } = input;
  const shown = input.shown(target.file);
  return {
    client: target.client,
    file: target.file,
    shown,
    shape: target.shape,
    plan: (current, backup) => {
      const checked = checkText(current, target.client, shown, input.fixJsonc ? "fix" : "refuse");
      const plan = planText(checked.text, shown, beforeInstall(backup, target.shape));
      return fromPlan(plan, checked.note);
    },
  };
}

// Uninstall touches the same files and removes only what is ours.
export function uninstallJobs(input: JobInput, events: readonly string[] | undefined): FileJob[] {
  const { target } = input;
  const jobs: FileJob[] = [];
  jobs.push(shapeOf(target.shape).uninstallJob(input, events));
  if (target.legacyFile !== undefined) {
    jobs.push(legacyJob(input, target.legacyFile, events, "removed"));
  }
  for (const job of jobs) job.dropsSpentBackup = job.shape !== undefined;
  if (target.wrapper !== undefined && events === undefined) {
    const wrapperShown = input.shown(target.wrapper.path);
    jobs.push({
      client: target.client,
      file: target.wrapper.path,
      shown: wrapperShown,
      isWrapper: true,
      plan: (current) => fromWrapper(planWrapperUninstall(current, wrapperShown)),
    });
  }
  return jobs;
}

// Droid's settings.json "hooks": remove our entries only, keeping the file's comments as they are.
function legacyJob(
  input: JobInput,
  file: string,
  events: readonly string[] | undefined,
  verb: string,
): FileJob {
  const shown = input.shown(file);
  return {
    client: input.target.client,
    file,
    shown,
    shape: "settings",
    plan: (current, backup) => {
      if (!isParsable(current)) {
        const warning = `${shown}: not valid JSON, so droid ignores its hooks; left untouched.`;
        return { next: current, summary: [], conflicts: [], warnings: [warning] };
      }
      const file = { shape: "settings", shown, mayDelete: false } as const;
      const plan = planUninstall(current, events, file, beforeInstall(backup, "settings"));
      const summary = plan.changes.map((change) => `${change.event}: ${verb}`);
      return { next: plan.next, summary, conflicts: plan.conflicts, warnings: plan.warnings ?? [] };
    },
  };
}

// The .bak tells what the file held before hook-notify came in, as long as it holds none of ours
// (install keeps that .bak while it updates its own entries); otherwise nothing is known.
function beforeInstall(backup: string | undefined, shape: FileShape): Before | undefined {
  if (backup === undefined || !isParsable(backup)) return undefined;
  if (eventsWithOurs(backup, shape).length > 0) return undefined;
  const body = backup.replace(/^\uFEFF/, "");
  return {
    text: backup,
    data: body.trim() === "" ? {} : parse(body, [], { allowTrailingComma: true }),
  };
}

// True when a .bak may be replaced: the file holds none of our entries yet, or the .bak is not the
// file from before install (it holds ours, or there is none).
export function mayReplaceBackup(
  current: string | undefined,
  backup: string | undefined,
  shape: FileShape,
): boolean {
  if (backup === undefined || current === undefined) return true;
  return eventsWithOurs(current, shape).length === 0 || beforeInstall(backup, shape) === undefined;
}

// A legacy settings.json is not ours to police: if it does not even parse, we stay out of it.
function isParsable(text: string | undefined): boolean {
  try {
    if (text !== undefined) parseSettings(text, "");
    return true;
  } catch {
    return false;
  }
}

function fromPlan(plan: SettingsPlan, note: string | undefined): Step {
  const summary = plan.changes.map((change) => `${change.event}: ${change.action}`);
  if (note !== undefined) summary.unshift(note);
  return { next: plan.next, summary, conflicts: plan.conflicts, warnings: plan.warnings ?? [] };
}

function fromWrapper(plan: ReturnType<typeof planWrapperInstall>): Step {
  return {
    next: plan.next,
    summary: plan.change === undefined ? [] : [`wrapper script ${plan.change}`],
    conflicts: plan.conflict === undefined ? [] : [plan.conflict],
    warnings: plan.warning === undefined ? [] : [plan.warning],
  };
}

// A file of hook-notify's own (Copilot CLI's hooks file, OpenCode's plugin): ours or refused whole.
export function ownFileJob(
  input: JobInput,
  plan: (current: string | undefined, shown: string) => Step,
): FileJob {
  const shown = input.shown(input.target.file);
  return {
    client: input.target.client,
    file: input.target.file,
    shown,
    shape: input.target.shape,
    plan: (current) => plan(current, shown),
  };
}
