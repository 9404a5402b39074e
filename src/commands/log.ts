// `hook-notify log`: the last hook runs from log.ndjson as a table (or the raw lines with --json).
import type { CommandModule } from "yargs";
import type { OutboxLine } from "../journal/line.js";
import type { WaitingEvent } from "../link/waiting-events.js";
import { basename } from "node:path";
import { approvalCell } from "./log-approval.js";
import { followUpKey, type LoggedRun } from "../journal/runs.js";
import { fallbackCells, fallbackNote, isRescued, receiptNote } from "./log-receipts.js";
import { FALLBACK_ONLY } from "../core/defaults.js";
import { formatTable, type Style } from "../style.js";

interface LogArgs {
  tail: number;
  failed: boolean;
  json: boolean;
}

// Registered in cli-yargs.ts; the reading and the table load only when the command runs.
export const logCommand: CommandModule<object, LogArgs> = {
  command: "log",
  describe: "Show the last hook runs: event, project and what each sink did",
  builder: (yargs) =>
    yargs
      .option("tail", {
        alias: "n",
        type: "number",
        default: 20,
        describe: "How many runs to show (0: all)",
      })
      .check((args) =>
        Number.isInteger(args.tail) && args.tail >= 0
          ? true
          : "--tail: give a whole number of runs, 0 or more (0: all)",
      )
      .option("failed", {
        type: "boolean",
        default: false,
        describe:
          "Only what nobody received: runs where a sink failed (and no fallback delivered it) or the run hit an error",
      })
      .option("json", {
        type: "boolean",
        default: false,
        describe: "Print the logged JSON lines as they are (one run, then its outbox lines)",
      })
      .example("$0 log", "the last 20 runs")
      .example("$0 log --failed --tail 5", "the last 5 runs that went wrong")
      .example("$0 log --json | jq .", "the raw log lines"),
  handler: async (args) => {
    const [
      { createDeps },
      { logPath },
      { readRuns },
      { createStyle },
      { outboxPaths },
      { waitingEvents },
    ] = await Promise.all([
      import("../deps.js"),
      import("../config/paths.js"),
      import("../journal/runs.js"),
      import("../style.js"),
      import("../outbox/paths.js"),
      import("../link/waiting-events.js"),
    ]);
    const deps = createDeps();
    const path = logPath(deps);
    const tail = Number.isFinite(args.tail) ? Math.max(0, Math.floor(args.tail)) : 20;
    const read = readRuns(path, { tail, failed: args.failed });
    const parsed = read?.parsed;
    // Events no worker has run yet: nobody received them, so --failed shows them too.
    const waiting = waitingEvents(outboxPaths(deps));
    if ((!parsed || parsed.runs.length === 0) && waiting.length === 0) {
      console.log(`No runs logged yet at ${path}.`);
      return;
    }
    if (parsed && parsed.corrupt > 0)
      console.error(`hook-notify: skipped ${parsed.corrupt} unreadable line(s) in ${path}.`);
    const runs = read?.runs ?? [];
    if (args.json) {
      for (const run of runs) for (const line of run.lines) console.log(line);
      if (waiting.length > 0) console.error(waitingNote(waiting.length, outboxPaths(deps).events));
    } else if (runs.length === 0 && waiting.length === 0) {
      console.log(`No failed runs among the ${parsed?.runs.length ?? 0} logged in ${path}.`);
    } else {
      const style = createStyle(process.stdout, deps.env);
      printRuns(runs, waiting, style);
      if (waiting.length > 0) console.log(waitingNote(waiting.length, outboxPaths(deps).events));
    }
  },
};

function waitingNote(count: number, dir: string): string {
  return `${String(count)} hook event(s) in ${dir} wait for a worker: hook-notify flush runs them now.`;
}

function printRuns(
  runs: readonly LoggedRun[],
  waiting: readonly WaitingEvent[],
  style: Style,
): void {
  const header = ["time", "client", "event", "project", "error", "sinks"].map((h) => style.bold(h));
  const rows = [
    ...runs.map((run) => toRow(run, style)),
    ...waiting.map((w) => waitingRow(w, style)),
  ];
  for (const line of formatTable(header, rows)) console.log(line);
}

// An event in outbox/events/ that no worker has run: no sink has seen it yet.
function waitingRow(event: WaitingEvent, style: Style): string[] {
  return [
    localTime(new Date(event.receivedAt).toISOString()),
    event.client ?? "",
    event.event ?? "",
    event.cwd === undefined ? "" : basename(event.cwd),
    "",
    style.warn("waiting for a worker"),
  ];
}

function toRow(run: LoggedRun, style: Style): string[] {
  const { record } = run;
  return [
    localTime(record.time),
    record.via === "test" ? "test" : (record.client ?? ""), // `hook-notify test`'s sample
    record.event ?? (record.ignored ? `${record.ignored} (ignored)` : ""),
    record.project ?? "",
    record.error ? style.fail(record.error.code) : "",
    [
      ...sinkCells(run, style),
      ...approvalCells(run, style),
      ...issueCells(run, style),
      ...keptCells(run, style),
      ...(run.record.notes ?? []).map((note) => `note: ${note}`),
    ].join(", ") || "-",
  ];
}

// What the config left out, as `test` and `doctor` say it ("left out: sinks.slack.url: environment
// variable SLACK_WEBHOOK_URL is not set"), without the file's path.
function issueCells(run: LoggedRun, style: Style): string[] {
  return run.record.issues.map((issue) =>
    style.fail(`left out: ${issue.replace(/^.*?\.json: /, "").replace(/\. Export it.*$/, "")}`),
  );
}

// A hook that ran its event itself instead of handing it to a worker says why (link/hand-over.ts).
function keptCells(run: LoggedRun, style: Style): string[] {
  const kept = run.record.kept;
  return kept === undefined ? [] : [style.dim(`run by the hook (${kept.replace(/^kept: /, "")})`)];
}

// An approve run's line also says what became of the permission request.
function approvalCells(run: LoggedRun, style: Style): string[] {
  const { approval } = run.record;
  return approval && Array.isArray(approval.rejected)
    ? [approvalCell(approval, style, localTime, run.record.event)]
    : [];
}

// "✓ desktop", "✓ sound (started)", "✗ team SINK_HTTP_STATUS", "queued hook", "held hook (coalescing)",
// "✓ hook (1 of 3 merged)", "skipped sound: <reason>".
function sinkCells(run: LoggedRun, style: Style): string[] {
  const cells = run.record.outcomes.map((outcome) => {
    const queued = outcome.outcome === "queued" || outcome.outcome === "coalesced";
    const later = queued ? run.journal.get(outcome.sink) : undefined;
    const ok = outcome.ok && later?.outbox !== "failed";
    const count = run.merged.get(outcome.sink);
    const merged = count === undefined ? "" : ` (1 of ${String(count)} merged)`;
    if (outcome.outcome === "coalesced" && later === undefined)
      return style.warn(`held ${outcome.sink} (coalescing)`);
    const digest = run.digests?.get(outcome.sink);
    if (later?.outbox === "held")
      return style.warn(`held ${outcome.sink} (digest: ${presenceOf(later)})`);
    if (digest && (later?.outbox === "digest" || later?.outbox === "retry"))
      return style.warn(`queued ${outcome.sink} (in digest ${digest})`);
    if (digest && later?.outbox === "delivered")
      return style.ok(`${style.okMark} ${outcome.sink} (in digest ${digest})`);
    const waiting = later === undefined || later.outbox === "retry" || later.outbox === "coalesced";
    if (queued && waiting) {
      const retry = later?.code ? ` (retrying: ${later.code})` : "";
      return style.warn(`queued ${outcome.sink}${merged}${retry}`);
    }
    if (later?.outbox === "skipped")
      return style.dim(`skipped ${outcome.sink}: ${presenceOf(later)}`);
    const away = later?.presence ? ` (${presenceOf(later).replace(" (", ": ").slice(0, -1)})` : "";
    const receipt = receiptNote(run, outcome.sink, later);
    // "started": the program was still running when the hook went on; nothing failed while watched.
    if (ok && outcome.outcome === "started")
      return style.ok(`${style.okMark} ${outcome.sink} (started)${receipt}`);
    if (ok) return style.ok(`${style.okMark} ${outcome.sink}${merged}${away}${receipt}`);
    const here = outcome.outcome === "failed" ? outcome : undefined;
    const code = later?.code ?? here?.code ?? "";
    const failed = `${style.failMark} ${outcome.sink}${merged} ${code}`.trimEnd();
    const fallback = later?.fallback ?? here?.fallback;
    const skipped = later?.fallbackSkipped ?? here?.fallbackSkipped;
    const cell = `${failed}${fallbackNote(fallback, skipped)}`;
    return isRescued(run, fallback, skipped) ? style.warn(cell) : style.fail(cell);
  });
  // A sink with "events": [] is a fallback only: not being routed to is not news.
  const skips = run.record.skipped.filter(({ reason }) => reason !== FALLBACK_ONLY);
  const skipped = groupSkips(skips).map(({ sinks, reason }) =>
    style.dim(`skipped ${sinks.join(", ")}: ${reason}`),
  );
  return [...cells, ...fallbackCells(run, style), ...skipped, ...followUpCells(run, style)];
}

// Sinks skipped for the same reason share one cell: a long container reason is said once.
export function groupSkips(
  skips: readonly { sink: string; reason: string }[],
): { sinks: string[]; reason: string }[] {
  const byReason = new Map<string, string[]>();
  for (const { sink, reason } of skips)
    byReason.set(reason, [...(byReason.get(reason) ?? []), sink]);
  return [...byReason].map(([reason, sinks]) => ({ sinks, reason }));
}

// "present (tmux: pane %1 is active …)", "away (tmux: …)"
function presenceOf(line: OutboxLine): string {
  const presence = line.presence as { state?: string; probe?: string; detail?: string } | undefined;
  if (!presence) return line.message ?? "";
  return `${presence.state ?? ""} (${presence.probe ?? ""}: ${presence.detail ?? ""})`;
}

// Escalations: "follow-up phone in 300 s", "✓ phone (follow-up)", "cancelled phone: answered …".
function followUpCells(run: LoggedRun, style: Style): string[] {
  return (run.record.escalations ?? []).map(({ sink, afterSeconds, id }) => {
    const line = run.journal.get(followUpKey(sink, id));
    if (!line || line.outbox === "retry")
      return style.warn(`follow-up ${sink} after ${String(afterSeconds)} s unless answered`);
    if (line.outbox === "delivered") return style.ok(`${style.okMark} ${sink} (follow-up)`);
    if (line.outbox === "cancelled")
      return style.dim(`cancelled ${sink} follow-up: ${line.message ?? ""}`);
    if (line.outbox === "skipped")
      return style.dim(`skipped ${sink} follow-up: ${presenceOf(line)}`);
    return style.fail(`${style.failMark} ${sink} (follow-up) ${line.code ?? ""}`.trimEnd());
  });
}

// ISO time in the log → "2026-11-23 12:04:05" in the reader's time zone.
function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, "0");
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
