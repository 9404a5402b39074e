import { realpath } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "jsonc-parser";
import type { ClientAdapter } from "../clients/adapter.js";
import { adapterFor, approvingClients, clients, sentenceName } from "../clients/index.js";
import { HookNotifyError } from "../errors.js";
import type { Client } from "../core/hook-event.js";
import { findDoubleRuns } from "./double-runs.js";
import { previewJobs } from "./commit-jobs.js";
import type { FileJob } from "./file-job.js";
import { installJobs, uninstallJobs } from "./plan-jobs.js";
import { displayPath, findInstalled, locateTarget } from "./locate.js";
import { type Scope, type Target } from "../core/install-target.js";
import { hasForeignHooks } from "./file-shape.js";
import { settingsShape } from "./shape-settings.js";
import { loadLauncher, loadWrapper } from "./load-template.js";
import { refuseNpxCache, renderLauncher, withLauncher } from "./launcher.js";
import { desiredHandlers } from "./desired-handlers.js";

/** The machine install runs on, passed in by the command (the only place that reads process). */
export interface Machine {
  home: string;
  projectDir: string;
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  nodePath: string;
  packageRoot: string;
  /** bin/hook-notify.cjs; defaults to the one in packageRoot, resolved through symlinks. */
  scriptPath?: string;
}

/** What the person asked for on the command line. */
export interface SettingsRequest {
  clients: readonly Client[];
  scope: Scope;
  events: readonly string[] | undefined;
  timeout: number | undefined;
  fixJsonc: boolean;
  /** install --approve: the PermissionRequest entry's timeout in seconds (the clients that answer
   * permissions); `retry`: also the PermissionDenied "Let it retry" ask (install --retry). */
  approve?: { timeout: number; retry?: boolean } | undefined;
}

/** Planned, not yet written: previews to show or commit, and warnings to print. */
export interface Prepared {
  previews: Awaited<ReturnType<typeof previewJobs>>["previews"];
  warnings: string[];
  clients: Client[];
}

// Plans an install for every client asked for; writes nothing.
export async function prepareInstall(
  request: SettingsRequest,
  machine: Machine,
): Promise<Prepared> {
  refuseWindowsProject(request, machine);
  const located = targetsFor(request, machine);
  const targets = located.targets.map((target) => withLauncher(target, machine));
  const warnings = located.warnings;
  const shown = (file: string): string => displayPath(file, machine.home);
  const script =
    machine.scriptPath ?? (await realpath(join(machine.packageRoot, "bin", "hook-notify.cjs")));
  if (request.scope === "user") refuseNpxCache(script);
  const wrapper = await loadWrapper(machine.packageRoot);
  const launcher = renderLauncher(
    await loadLauncher(machine.packageRoot),
    machine.nodePath,
    script,
  );
  const jobs: FileJob[] = [];
  const installed = new Map<Target, string[]>();
  for (const target of targets) {
    const desired = await desiredHandlers(target, request, machine, script);
    installed.set(target, [...desired.keys()]);
    const input = { target, shown, fixJsonc: request.fixJsonc, platform: machine.platform };
    jobs.push(...installJobs(input, desired, target.scope === "user" ? launcher : wrapper));
  }
  const preview = await previewJobs(jobs);
  guardDroidLegacy(preview.previews, targets);
  const planned = new Map(preview.previews.map((p) => [p.job.file, p.step.next]));
  const everywhere = await findInstalled(machine, planned, shown);
  for (const [target, events] of installed) {
    const here = {
      client: target.client,
      scope: target.scope,
      file: target.file,
      shown: shown(target.file),
      events,
    };
    warnings.push(
      ...findDoubleRuns(
        here,
        everywhere.filter(
          (other) => other.file !== target.file && other.file !== target.legacyFile,
        ),
      ),
    );
  }
  return {
    previews: preview.previews,
    warnings: [...warnings, ...preview.warnings],
    clients: targets.map((t) => t.client),
  };
}

// Plans an uninstall: our entries, the containers they leave empty, the wrapper.
export async function prepareUninstall(
  request: SettingsRequest,
  machine: Machine,
): Promise<Prepared> {
  const located = targetsFor(request, machine);
  const targets = located.targets.map((target) => withLauncher(target, machine));
  const warnings = located.warnings;
  const shown = (file: string): string => displayPath(file, machine.home);
  const jobs = targets.flatMap((target) =>
    uninstallJobs(
      { target, shown, fixJsonc: request.fixJsonc },
      ownNames(request.events, adapterFor(target.client)),
    ),
  );
  const preview = await previewJobs(jobs);
  const planned = new Map(preview.previews.map((p) => [p.job.file, p.step.next]));
  for (const other of await findInstalled(machine, planned, shown)) {
    warnings.push(
      `hook-notify still runs from ${other.shown} (${other.events.join(", ")}); it was not part of this uninstall.`,
    );
  }
  return {
    previews: preview.previews,
    warnings: [...warnings, ...preview.warnings],
    clients: targets.map((t) => t.client),
  };
}

// The project wrapper is a sh script: cmd.exe (Droid) and PowerShell (Claude Code without Git
// Bash) cannot run it, so project scope is refused on Windows rather than written broken.
function refuseWindowsProject(request: SettingsRequest, machine: Machine): void {
  if (machine.platform !== "win32" || request.scope !== "project") return;
  throw new HookNotifyError(
    "USAGE",
    "--scope project is not available on Windows: its shared wrapper is a sh script, which Droid (cmd.exe) and Claude Code without Git Bash (PowerShell) cannot run. Use --scope user (or --scope local for Claude Code).",
  );
}

// "--client all --scope local" installs Claude Code only: the others have no local scope that fires.
function targetsFor(
  request: SettingsRequest,
  machine: Machine,
): { targets: Target[]; warnings: string[] } {
  const warnings: string[] = [];
  const targets: Target[] = [];
  for (const client of request.clients) {
    const adapter = adapterFor(client);
    if (request.approve !== undefined && adapter.answersPermissions !== true) {
      warnings.push(noApproveFor(adapter));
      continue;
    }
    if (request.approve?.retry === true && adapter.answersRetry !== true) {
      const retry = `${adapter.name} has no PermissionDenied hook that can let a blocked action retry`;
      if (request.clients.length === 1) {
        throw new HookNotifyError(
          "USAGE",
          `--retry: ${retry}; use ${retryingClients()}, or leave out --retry.`,
        );
      }
      warnings.push(`${retry}; --retry added nothing for ${adapter.name}.`);
    }
    if (!adapter.scopes.includes(request.scope) && request.clients.length > 1) {
      const name = sentenceName(adapter);
      warnings.push(
        `${name} has no ${request.scope} scope that runs hooks; skipped ${name}. Use --scope ${adapter.scopes.join(" or ")} for ${name}.`,
      );
      continue;
    }
    targets.push(locateTarget(client, request.scope, machine));
  }
  if (targets.length === 0 && request.approve !== undefined) {
    const approving = approvingClients()
      .map((adapter) => adapter.id)
      .join(" or ");
    throw new HookNotifyError("USAGE", `${warnings.join(" ")} Use --client ${approving}.`);
  }
  return { targets, warnings };
}

// The clients install --retry writes the "Let it retry" ask for, as flags.
function retryingClients(): string {
  const ids = clients.filter((adapter) => adapter.answersRetry === true).map((a) => a.id);
  return ids.map((id) => `--client ${id}`).join(" or ");
}

// install --approve writes the PermissionRequest entry for the approving clients only.
function noApproveFor(adapter: ClientAdapter): string {
  if (adapter.noApprove !== undefined) return adapter.noApprove;
  const approving = approvingClients()
    .map((client) => `${client.name}'s`)
    .join(" and ");
  return `approving from the phone is built for ${approving} PermissionRequest only; nothing was written for ${adapter.name}.`;
}

// Creating .factory/hooks.json would silence hooks that droid now runs from .factory/settings.json.
function guardDroidLegacy(previews: Prepared["previews"], targets: readonly Target[]): void {
  for (const target of targets) {
    if (target.scope !== "project" || target.legacyFile === undefined) continue;
    const hooksFile = previews.find((p) => p.job.file === target.file);
    const legacy = previews.find((p) => p.job.file === target.legacyFile);
    if (hooksFile?.current !== undefined || legacy?.step.next === undefined) continue;
    if (!hasForeignHooks(parse(legacy.step.next, [], { allowTrailingComma: true }), settingsShape))
      continue;
    throw new HookNotifyError(
      "SETTINGS_CONFLICT",
      `${legacy.job.shown}: droid runs its "hooks" only while .factory/hooks.json does not exist, so installing would silence them. Move that "hooks" map (unwrapped) into .factory/hooks.json, then run again.`,
    );
  }
}

// Uninstall --events: hook-notify's names become the client's (Stop removes Gemini's AfterAgent).
function ownNames(
  events: readonly string[] | undefined,
  adapter: ClientAdapter,
): string[] | undefined {
  if (events === undefined) return undefined;
  return events.flatMap((event) => {
    if (adapter.events[event] !== undefined) return [event];
    const own = Object.keys(adapter.events).filter((name) => adapter.events[name] === event);
    return own.length > 0 ? own : [event];
  });
}
