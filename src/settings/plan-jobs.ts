// The files install and uninstall touch for one target: the wrapper, Droid's legacy settings.json,
// and the hooks file, whose job its shape (settings/shapes.ts) plans.
import { beforeInstall, isParsable, type FileJob, type JobInput, type Step } from "./file-job.js";
import { planUninstall, type Desired } from "./plan.js";
import { planWrapperInstall, planWrapperUninstall } from "./plan-wrapper.js";
import { settingsShape } from "./shape-settings.js";
import { shapeOf } from "./shapes.js";

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
    shape: settingsShape.id,
    plan: (current, backup) => {
      if (!isParsable(current)) {
        const warning = `${shown}: not valid JSON, so droid ignores its hooks; left untouched.`;
        return { next: current, summary: [], conflicts: [], warnings: [warning] };
      }
      const file = { shape: settingsShape, shown, mayDelete: false };
      const plan = planUninstall(current, events, file, beforeInstall(backup, settingsShape));
      const summary = plan.changes.map((change) => `${change.event}: ${verb}`);
      return { next: plan.next, summary, conflicts: plan.conflicts, warnings: plan.warnings ?? [] };
    },
  };
}

function fromWrapper(plan: ReturnType<typeof planWrapperInstall>): Step {
  return {
    next: plan.next,
    summary: plan.change === undefined ? [] : [`wrapper script ${plan.change}`],
    conflicts: plan.conflict === undefined ? [] : [plan.conflict],
    warnings: plan.warning === undefined ? [] : [plan.warning],
  };
}
