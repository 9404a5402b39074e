import { rmdir } from "node:fs/promises";
import { dirname } from "node:path";
import { HookNotifyError } from "../errors.js";
import type { Client } from "../pipeline/hook-event.js";
import { withFileLock, writeAtomic } from "./apply.js";
import { diffLines } from "./diff.js";
import type { FileJob, Step } from "./jobs.js";
import { readText } from "./read.js";

/** What one file looked like, what we planned, and (after commit) where its backup went. */
export interface FileReport {
  client: Client;
  file: string;
  shown: string;
  summary: string[];
  /** True when the file's text (or existence) changes. */
  changed: boolean;
  /** A line diff for settings files; empty for the wrapper, whose summary says it all. */
  diff: string;
  next: string | undefined;
  backup: string | undefined;
}

/** A previewed job: the text on disk when we looked, and the step planned from it. */
interface Preview {
  job: FileJob;
  current: string | undefined;
  step: Step;
}

// Plans every file before writing any, so one refusal leaves all of them untouched.
export async function previewJobs(
  jobs: readonly FileJob[],
): Promise<{ previews: Preview[]; warnings: string[] }> {
  const previews: Preview[] = [];
  for (const job of jobs) {
    const current = await readText(job.file, job.shown);
    previews.push({ job, current, step: job.plan(current) });
  }
  const conflicts = previews.flatMap((preview) => preview.step.conflicts);
  if (conflicts.length > 0) throw new HookNotifyError("SETTINGS_CONFLICT", conflicts.join("\n"));
  return { previews, warnings: previews.flatMap((preview) => preview.step.warnings) };
}

// What a dry run shows: the planned diffs, nothing written.
export function reportPreviews(previews: readonly Preview[]): FileReport[] {
  return previews.map(({ job, current, step }) => toReport(job, current, step, undefined));
}

// Writes each changed file under its lock, re-planning on the text found there (compare and retry).
export async function commitJobs(previews: readonly Preview[]): Promise<FileReport[]> {
  const reports: FileReport[] = [];
  for (const { job, current: seen, step: planned } of previews) {
    if (planned.next === seen) {
      reports.push(toReport(job, seen, planned, undefined));
      continue;
    }
    const report = await withFileLock(job.file, job.shown, async () => {
      const current = await readText(job.file, job.shown);
      const step = job.plan(current);
      if (step.conflicts.length > 0) {
        throw new HookNotifyError("SETTINGS_CONFLICT", step.conflicts.join("\n"));
      }
      if (step.next === current) return toReport(job, current, step, undefined);
      const isWrapper = job.isWrapper === true;
      const request = { file: job.file, shown: job.shown, next: step.next, backup: !isWrapper };
      const result = await writeAtomic(isWrapper ? { ...request, mode: 0o755 } : request);
      return toReport(job, current, step, result.backup);
    });
    if (job.isWrapper === true && report.next === undefined) {
      await rmdir(dirname(job.file)).catch(() => undefined);
    }
    reports.push(report);
  }
  return reports;
}

function toReport(
  job: FileJob,
  current: string | undefined,
  step: Step,
  backup: string | undefined,
): FileReport {
  const changed = step.next !== current;
  const diff =
    changed && job.isWrapper !== true ? diffLines(current ?? "", step.next ?? "", job.shown) : "";
  const summary =
    step.next === undefined && current !== undefined
      ? [...step.summary, "file removed"]
      : step.summary;
  return {
    client: job.client,
    file: job.file,
    shown: job.shown,
    summary,
    changed,
    diff,
    next: step.next,
    backup,
  };
}
