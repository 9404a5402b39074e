import { adapterFor, sentenceName } from "../clients/index.js";
import type { Client } from "../core/hook-event.js";
import type { FileReport } from "./commit-jobs.js";

/** How the run went, for the words around the file reports. */
export interface ReportContext {
  action: "install" | "uninstall";
  /**
   * preview: shown before asking; dry-run: nothing will be written; written: it is done;
   * confirmed: written after the preview was shown and accepted (so each diff is not shown again).
   */
  stage: "preview" | "dry-run" | "written" | "confirmed";
  clients: readonly Client[];
  home: string;
  /** How the person runs hook-notify here (settings/self-command.ts); "hook-notify" by default. */
  self?: string;
}

// The text a person reads after install/uninstall: each changed file, its diff, then what to do next.
export function formatReport(
  files: readonly FileReport[],
  warnings: readonly string[],
  context: ReportContext,
): string {
  const changed = files.filter((file) => file.changed);
  const lines: string[] = [];
  for (const file of changed) lines.push(...fileLines(file, context));
  if (changed.length === 0) lines.push(nothingToDo(context), "");
  else if (context.stage === "confirmed") lines.push("");
  // The preview already showed the warnings.
  if (context.stage !== "confirmed")
    lines.push(...warnings.map((warning) => `Warning: ${warning}`));
  if (context.stage === "dry-run" && changed.length > 0) {
    lines.push("Dry run: nothing was written. Run the same command without --dry-run to apply it.");
  } else if (context.stage !== "preview" && changed.length > 0) {
    lines.push(nextStep(context));
  }
  return lines.join("\n").replace(/\n+$/, "") + "\n";
}

// One changed file: its summary and diff, or after a confirmed preview only that it was written.
function fileLines(file: FileReport, context: ReportContext): string[] {
  const backup =
    file.backup === undefined
      ? []
      : [`  (previous version saved as ${tilde(file.backup, context.home)})`];
  if (context.stage === "confirmed") return [`Wrote ${file.shown}`, ...backup];
  const diff = file.diff === "" ? [] : file.diff.split("\n").map((line) => `  ${line}`);
  return [`${file.shown}:`, ...file.summary.map((line) => `  ${line}`), ...diff, ...backup, ""];
}

function nothingToDo(context: ReportContext): string {
  const who = context.clients.map((client) => clientName(client)).join(" and ");
  return context.action === "install"
    ? `No change: hook-notify is already installed for ${who} here.`
    : `No change: hook-notify was not installed for ${who} here.`;
}

function nextStep(context: ReportContext): string {
  const review = context.clients
    .filter((client) => adapterFor(client).afterInstall === undefined)
    .map((client) => `open /hooks in ${clientName(client)} (or restart it)`)
    .join(", and ");
  const notes = context.clients.flatMap((client) => adapterFor(client).afterInstall ?? []);
  const next = review === "" ? "Next: run" : `Next: ${review} to pick up the hooks; then run`;
  return context.action === "install"
    ? [
        ...notes.map((note) => `Note: ${note}`),
        `${next} "${context.self ?? "hook-notify"} test".`,
      ].join("\n")
    : `Done: hook-notify's hooks are removed. Restart the client, or check /hooks, to make sure.`;
}

function tilde(file: string, home: string): string {
  return file.startsWith(home) ? "~" + file.slice(home.length) : file;
}

// Each client as it names itself (an adapter's nameInSentences: droid writes itself lowercase).
function clientName(client: Client): string {
  return sentenceName(adapterFor(client));
}
