// Copilot CLI reads every *.json in its hooks folders, so hook-notify keeps a file of its own
// there (hook-notify.json) instead of editing anyone's: the whole file is ours, or it is not.
import { isHookNotifyCommand } from "./hook-command.js";
import type { Desired } from "./plan.js";
import { readJsonLeniently } from "./read.js";
import { defineShape } from "./hooks-file-shape.js";
import { ownFileJob } from "./file-job.js";
import { isRecord } from "./hook-schema.js";

/** One planned step on our own file, in the shape FileJob expects. */
export interface OwnFileStep {
  next: string | undefined;
  summary: string[];
  conflicts: string[];
  warnings: string[];
}

// Copilot's flat entries ({"bash": …, "timeoutSec": …}) read as matcher groups, so the code
// that lists and checks hook-notify's entries (doctor, duplicates) reads every client alike.
export function copilotEventMap(root: unknown): unknown {
  if (!isRecord(root) || !isRecord(root["hooks"])) return undefined;
  const map: Record<string, unknown> = {};
  for (const [event, entries] of Object.entries(root["hooks"])) {
    if (!Array.isArray(entries)) continue;
    const hooks = entries.filter(isRecord).map((entry) => ({
      type: entry["type"],
      command: entry["bash"] ?? entry["powershell"],
      timeout: entry["timeoutSec"],
    }));
    map[event] = [{ hooks }];
  }
  return map;
}

// The file for these events: version 1, a command entry per wanted handler, timeouts in seconds.
export function renderCopilotFile(desired: Desired, platform: NodeJS.Platform): string {
  const hooks: Record<string, unknown[]> = {};
  for (const [event, handlers] of desired) {
    hooks[event] = handlers.map((handler) => {
      const shell =
        platform === "win32" ? { powershell: `& ${handler.command}` } : { bash: handler.command };
      return { type: "command", ...shell, timeoutSec: handler.timeout };
    });
  }
  return JSON.stringify({ version: 1, hooks }, null, 2) + "\n";
}

// Install: write ours, update an older one of ours, never overwrite a stranger's file.
export function planCopilotInstall(
  current: string | undefined,
  next: string,
  shown: string,
): OwnFileStep {
  const events = eventsOf(next);
  if (current === next) return step(current, []);
  if (current === undefined)
    return step(
      next,
      events.map((e) => `${e}: added`),
    );
  if (!isOurs(current)) return refuse(current, shown);
  return step(
    next,
    events.map((e) => `${e}: updated`),
  );
}

// Uninstall: the file goes, or (with --events) keeps the other events.
export function planCopilotUninstall(
  current: string | undefined,
  events: readonly string[] | undefined,
  shown: string,
): OwnFileStep {
  if (current === undefined) return step(undefined, []);
  if (!isOurs(current)) return refuse(current, shown);
  const all = eventsOf(current);
  const gone = events === undefined ? all : all.filter((e) => events.includes(e));
  const kept = all.filter((e) => !gone.includes(e));
  const root = JSON.parse(current) as { hooks: Record<string, unknown> };
  const summary = gone.map((e) => `${e}: removed`);
  if (kept.length === 0) return step(undefined, summary);
  const hooks = Object.fromEntries(kept.map((e) => [e, root.hooks[e]]));
  return step(JSON.stringify({ version: 1, hooks }, null, 2) + "\n", summary);
}

function eventsOf(text: string): string[] {
  const root = JSON.parse(text) as { hooks?: Record<string, unknown> };
  return Object.keys(root.hooks ?? {});
}

// Ours: a version 1 file whose every entry runs hook-notify.
function isOurs(text: string): boolean {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return false;
  }
  const map = copilotEventMap(root);
  if (!isRecord(map) || !isRecord(root) || root["version"] !== 1) return false;
  return Object.values(map).every((groups) =>
    (groups as { hooks: { command: unknown }[] }[]).every((group) =>
      group.hooks.every((h) => typeof h.command === "string" && isHookNotifyCommand(h.command)),
    ),
  );
}

function step(next: string | undefined, summary: string[]): OwnFileStep {
  return { next, summary, conflicts: [], warnings: [] };
}

function refuse(current: string, shown: string): OwnFileStep {
  const why = `${shown}: a file hook-notify did not write has this name. Rename it, then run again.`;
  return { next: current, summary: [], conflicts: [why], warnings: [] };
}

// Copilot CLI's shape: a file of hook-notify's own, flat entries per event, written per platform.
export const copilotShape = defineShape({
  id: "flat",
  read: readJsonLeniently,
  eventMap: copilotEventMap,
  comments: "client",
  installJob: (input, desired) => {
    const next = renderCopilotFile(desired, input.platform ?? "linux");
    return ownFileJob(input, (current, shown) => planCopilotInstall(current, next, shown));
  },
  uninstallJob: (input, events) =>
    ownFileJob(input, (current, shown) => planCopilotUninstall(current, events, shown)),
});
