import { realpath, rmdir, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { isDeepStrictEqual } from "node:util";
import { parse } from "jsonc-parser";
import { HookNotifyError } from "../errors.js";
import type { Client } from "../core/hook-event.js";
import { withFileLock, writeAtomic } from "./write-file.js";
import { diffLines } from "./report-diff.js";
import { mayReplaceBackup, type FileJob, type Step } from "./file-job.js";
import { readSettingsFile, readText } from "./read.js";
import { shapeOf } from "./shapes.js";

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
    previews.push({ job, current, step: job.plan(current, await readBackup(job)) });
  }
  const conflicts = previews.flatMap((preview) => preview.step.conflicts);
  if (conflicts.length > 0) throw new HookNotifyError("SETTINGS_CONFLICT", conflicts.join("\n"));
  return { previews, warnings: previews.flatMap((preview) => preview.step.warnings) };
}

// What a dry run shows: the planned diffs, nothing written.
export function reportPreviews(previews: readonly Preview[]): FileReport[] {
  return previews.map(({ job, current, step }) => toReport(job, current, step, undefined));
}

/** Attempts per file when another program keeps writing it between our read and our rename. */
const MAX_ATTEMPTS = 5;

// Writes each changed file under its lock, re-planning on the text found there (compare and retry).
export async function commitJobs(previews: readonly Preview[]): Promise<FileReport[]> {
  const reports: FileReport[] = [];
  for (const { job, current: seen, step: planned } of previews) {
    if (planned.next === seen) {
      reports.push(toReport(job, seen, planned, undefined));
      continue;
    }
    const report = await commitWithRetries(job);
    if (job.isWrapper === true && report.next === undefined) {
      await rmdir(dirname(job.file)).catch(() => undefined);
    }
    reports.push(report);
  }
  return reports;
}

// The lock keeps other installs out, not other programs: a file changed between our read and our
// rename is read and planned again, a few times, then refused with the other program's text intact.
async function commitWithRetries(job: FileJob): Promise<FileReport> {
  for (let attempt = 1; ; attempt++) {
    const report = await withFileLock(job.file, job.shown, () => commitOne(job));
    if (report !== "changed") return report;
    if (attempt === MAX_ATTEMPTS) {
      throw new HookNotifyError(
        "SETTINGS_CONFLICT",
        `${job.shown}: another program changed the file while hook-notify was writing it, ${MAX_ATTEMPTS} times in a row, so nothing was written and its changes stand. Close the program that keeps writing it, then run again.`,
      );
    }
    await sleep(attempt * 50 + Math.random() * 50);
  }
}

// One read, plan and write under the lock; "changed" when the file moved under our feet.
async function commitOne(job: FileJob): Promise<FileReport | "changed"> {
  const read = await readSettingsFile(job.file, job.shown);
  const current = read.text;
  const backup = await readBackup(job);
  const step = job.plan(current, backup);
  if (step.conflicts.length > 0) {
    throw new HookNotifyError("SETTINGS_CONFLICT", step.conflicts.join("\n"));
  }
  if (step.next === current) return toReport(job, current, step, undefined);
  const isWrapper = job.isWrapper === true;
  const backsUp = job.shape !== undefined && mayReplaceBackup(current, backup, shapeOf(job.shape));
  const result = await writeAtomic({
    file: job.file,
    shown: job.shown,
    next: step.next,
    expected: read.stamp,
    previous: backsUp ? read.bytes : undefined,
    ...(isWrapper ? { mode: 0o755 } : {}),
  });
  if (result.status === "changed") return "changed";
  if (job.dropsSpentBackup === true && isSpent(backup, step.next)) {
    await unlink(await backupPath(job)).catch(() => undefined);
  }
  return toReport(job, current, step, result.backup);
}

// After uninstall the file holds again what its .bak holds (the file before install): the .bak
// keeps nothing more, so it goes too instead of lingering (untracked in a project's git).
function isSpent(backup: string | undefined, next: string | undefined): boolean {
  if (backup === undefined) return false;
  const data = (text: string | undefined): unknown => parse(text ?? "") ?? {};
  return isDeepStrictEqual(data(backup), data(next));
}

// A settings file's .bak (beside the real file, for a symlink), which uninstall reads back.
async function readBackup(job: FileJob): Promise<string | undefined> {
  if (job.shape === undefined) return undefined;
  return readText(await backupPath(job), `${job.shown}.bak`).catch(() => undefined);
}

async function backupPath(job: FileJob): Promise<string> {
  return `${await realpath(job.file).catch(() => job.file)}.bak`;
}

function toReport(
  job: FileJob,
  current: string | undefined,
  step: Step,
  backup: string | undefined,
): FileReport {
  const changed = step.next !== current;
  // The wrapper and a plugin are files of our own code: their summary says enough.
  const isCode =
    job.isWrapper === true || (job.shape !== undefined && shapeOf(job.shape).comments === "code");
  const diff = changed && !isCode ? diffLines(current ?? "", step.next ?? "", job.shown) : "";
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
