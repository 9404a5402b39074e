import { parse } from "jsonc-parser";
import type { Client } from "../core/hook-event.js";
import type { FileShape, Target } from "../core/install-target.js";
import { eventsWithOurs } from "./file-shape.js";
import type { HooksFileShape } from "./hooks-file-shape.js";
import { checkText } from "./jsonc-policy.js";
import {
  planInstall,
  planUninstall,
  type Before,
  type Desired,
  type SettingsPlan,
} from "./plan.js";
import { parseSettings } from "./read.js";

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

// Install on a JSON hooks file edited where it stands (the settings and bare shapes).
export function editedInstallJob(
  input: JobInput,
  desired: Desired,
  shape: HooksFileShape,
): FileJob {
  return hooksFileJob(input, shape, (text, shown) =>
    planInstall(text, desired, { shape, shown, mayDelete: false }),
  );
}

// Uninstall on a JSON hooks file edited where it stands: only our entries go.
export function editedUninstallJob(
  input: JobInput,
  events: readonly string[] | undefined,
  shape: HooksFileShape,
): FileJob {
  return hooksFileJob(input, shape, (text, shown, before) =>
    planUninstall(text, events, { shape, shown, mayDelete: true }, before),
  );
}

// The client's hooks file: its text checked for the client (JSON, JSONC, shape), then planned.
export function hooksFileJob(
  input: JobInput,
  shape: HooksFileShape,
  planText: (text: string | undefined, shown: string, before: Before | undefined) => SettingsPlan,
): FileJob {
  const { target } = input;
  const shown = input.shown(target.file);
  return {
    client: target.client,
    file: target.file,
    shown,
    shape: shape.id,
    plan: (current, backup) => {
      const checked = checkText(current, target.client, shown, input.fixJsonc ? "fix" : "refuse");
      const plan = planText(checked.text, shown, beforeInstall(backup, shape));
      return fromPlan(plan, checked.note);
    },
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

// The .bak tells what the file held before hook-notify came in, as long as it holds none of ours
// (install keeps that .bak while it updates its own entries); otherwise nothing is known.
export function beforeInstall(
  backup: string | undefined,
  shape: HooksFileShape,
): Before | undefined {
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
  shape: HooksFileShape,
): boolean {
  if (backup === undefined || current === undefined) return true;
  return eventsWithOurs(current, shape).length === 0 || beforeInstall(backup, shape) === undefined;
}

// A legacy settings.json is not ours to police: if it does not even parse, we stay out of it.
export function isParsable(text: string | undefined): boolean {
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
