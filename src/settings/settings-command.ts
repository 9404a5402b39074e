import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { adapterFor, clients } from "../clients/index.js";
import type { ClientAdapter } from "../clients/adapter.js";
import { launcherPath } from "./launcher.js";
import { planMcpChanges, writeMcpChanges, type McpChange, type McpCommand } from "./mcp-servers.js";
import { HookNotifyError, toHookNotifyError } from "../errors.js";
import type { Client } from "../core/hook-event.js";
import { commitJobs, reportPreviews, type FileReport } from "./commit-jobs.js";
import { settingsJson } from "./report-json.js";
import { displayPath } from "./locate.js";
import { type Scope } from "../core/install-target.js";
import { formatReport } from "./report.js";
import { selfCommand } from "./self-command.js";
import { exitCodeFor } from "../core/exit-code.js";
import { prepareInstall, prepareUninstall, type Machine, type SettingsRequest } from "./prepare.js";

/** The parsed flags of install and uninstall. */
export interface SettingsArgs {
  /** A client id, or "all". */
  client: Client | undefined;
  scope: Scope;
  events: readonly string[] | undefined;
  timeout: number | undefined;
  projectDir: string | undefined;
  dryRun: boolean;
  yes: boolean;
  fixJsonc: boolean;
  /** install --approve: the PermissionRequest entry's timeout (the clients that answer permissions). */
  approve?: { timeout: number } | undefined;
  /** install --retry (with --approve): Claude Code's PermissionDenied "Let it retry" ask too. */
  retry?: boolean | undefined;
  /** install --mcp: register `hook-notify mcp` with the clients that take MCP servers. */
  mcp?: boolean | undefined;
  /** One JSON object on stdout instead of the report (report-json.ts); never asks. */
  json?: boolean | undefined;
}

/** Where output goes and how to ask; the command passes the real terminal. */
export interface SettingsIo {
  machine: Machine;
  out: (text: string) => void;
  err: (line: string) => void;
  /** Present only on an interactive terminal; asked before writing unless --yes. Without it
   * and without --yes nothing is written (exit 1). */
  confirm?: (question: string) => Promise<boolean>;
}

// install/uninstall from flags to exit code: plan, show, maybe ask, write, say what is next.
export async function runSettingsCommand(
  action: "install" | "uninstall",
  args: SettingsArgs,
  io: SettingsIo,
): Promise<number> {
  try {
    const machine = {
      ...io.machine,
      projectDir: resolve(io.machine.projectDir, args.projectDir ?? "."),
    };
    const request = toRequest(args, machine);
    const prepare = action === "install" ? prepareInstall : prepareUninstall;
    const prepared = await prepare(request, machine);
    const self = selfCommand({
      env: machine.env,
      platform: machine.platform,
      scriptPath: machine.scriptPath ?? join(machine.packageRoot, "bin", "hook-notify.cjs"),
      cwd: io.machine.projectDir,
    });
    const context = { action, clients: prepared.clients, home: machine.home, self };
    const previews = reportPreviews(prepared.previews);
    const hasChanges = previews.some((file) => file.changed);
    const mcp = await planMcp(action, args, prepared.clients, machine);
    const json = (files: readonly FileReport[], written: boolean, mcpLines: string[]) => {
      const run = { action, dryRun: args.dryRun, written, files, mcp: mcpLines };
      io.out(settingsJson({ ...run, warnings: prepared.warnings, home: machine.home }));
    };
    if (args.dryRun || !hasChanges) {
      const mcpLines = await finishMcp(action, mcp, args.dryRun, machine.home);
      if (args.json === true) json(previews, false, mcpLines);
      else {
        io.out(formatReport(previews, prepared.warnings, { ...context, stage: "dry-run" }));
        if (mcpLines.length > 0) io.out(`${mcpLines.join("\n")}\n`);
      }
      return 0;
    }
    const confirm = args.yes || args.json === true ? undefined : io.confirm;
    if (!args.yes) {
      if (confirm === undefined) {
        // Nobody to ask (stdin or stdout is not a terminal, or --json): a script says --yes.
        throw new HookNotifyError(
          "USAGE",
          `--yes required when not running interactively; nothing was written (see the changes first: hook-notify ${action} --dry-run).`,
        );
      }
      io.out(formatReport(previews, prepared.warnings, { ...context, stage: "preview" }));
      if (!(await confirm(`Apply these changes? [y/N] `))) {
        io.out("Nothing was written.\n");
        return 1;
      }
    }
    const written = await commitJobs(prepared.previews);
    const mcpLines = await finishMcp(action, mcp, false, machine.home);
    if (args.json === true) json(written, true, mcpLines);
    else {
      const stage = confirm !== undefined ? "confirmed" : "written";
      io.out(formatReport(written, prepared.warnings, { ...context, stage }));
      if (mcpLines.length > 0) io.out(`${mcpLines.join("\n")}\n`);
    }
    return 0;
  } catch (error) {
    const known = toHookNotifyError(error);
    for (const line of known.message.split("\n")) io.err(`hook-notify ${action}: ${line}`);
    if (known.code === "INTERNAL")
      io.err("This looks like a bug in hook-notify; please report it with the message above.");
    if (args.json === true) {
      const failed = { code: known.code, message: known.message };
      io.out(
        settingsJson({
          action,
          dryRun: args.dryRun,
          written: false,
          home: io.machine.home,
          error: failed,
        }),
      );
    }
    return exitCodeFor(known);
  }
}

// install --mcp (user scope only: the clients keep MCP servers per user), and every uninstall of
// all events: the clients' MCP files, planned. User-scope hooks run the client's launcher, and so
// does its MCP server (a node upgrade breaks neither); on Windows, node and the script.
async function planMcp(
  action: "install" | "uninstall",
  args: SettingsArgs,
  chosen: readonly Client[],
  machine: Machine,
): Promise<McpChange[]> {
  const wanted = action === "install" ? args.mcp === true : args.events === undefined;
  if (!wanted) return [];
  if (args.scope !== "user") {
    if (action === "uninstall") return [];
    throw new HookNotifyError(
      "USAGE",
      "--mcp registers hook-notify's MCP server for your user (the clients keep MCP servers per user): run install --mcp without --scope.",
    );
  }
  const script = machine.scriptPath ?? join(machine.packageRoot, "bin", "hook-notify.cjs");
  const commandFor = (adapter: ClientAdapter): McpCommand =>
    machine.platform === "win32"
      ? { program: machine.nodePath, args: [script, "mcp"] }
      : { program: launcherPath(adapter.id, machine), args: ["mcp"] };
  return planMcpChanges(action, chosen.map(adapterFor), machine, commandFor, (file) =>
    displayPath(file, machine.home),
  );
}

// The MCP changes written (or, on a dry run, described): one sentence each.
async function finishMcp(
  action: "install" | "uninstall",
  changes: readonly McpChange[],
  dryRun: boolean,
  home: string,
): Promise<string[]> {
  if (changes.length === 0) return [];
  const show = (file: string) => displayPath(file, home);
  const would = action === "install" ? "would register it in" : "would take it out of";
  const lines = dryRun
    ? changes.map((change) =>
        change.next === undefined
          ? change.said
          : `${change.client.name}: hook-notify's MCP server: ${would} ${show(change.file)}`,
      )
    : await writeMcpChanges(action, changes, show);
  return lines;
}

// Flags to a request; with no --client, every client that has a folder in the home directory.
function toRequest(args: SettingsArgs, machine: Machine): SettingsRequest {
  const timeout = args.timeout;
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout >= 1 && timeout <= 600)) {
    throw new HookNotifyError(
      "USAGE",
      "--timeout: give whole seconds from 1 to 600 (the clients count hook timeouts in seconds).",
    );
  }
  if (args.retry === true && args.approve === undefined) {
    throw new HookNotifyError(
      "USAGE",
      "--retry adds the phone's Let it retry ask to --approve's entries: run install --approve --retry.",
    );
  }
  return {
    clients: clientsFor(args.client, machine),
    scope: args.scope,
    events: args.events,
    timeout,
    fixJsonc: args.fixJsonc,
    approve: args.approve && { ...args.approve, retry: args.retry === true },
  };
}

// Every client whose folder is in the home directory (~/.factory, ~/.claude, ~/.codex, ~/.gemini).
function clientsFor(client: SettingsArgs["client"], machine: Machine): Client[] {
  if (client === "all") return clients.map((adapter) => adapter.id);
  if (client !== undefined) return [client];
  const found = clients.filter((adapter) => existsSync(adapter.configDir(machine)));
  if (found.length > 0) return found.map((adapter) => adapter.id);
  const folders = clients.map((adapter) => displayPath(adapter.configDir(machine), machine.home));
  const names = clients.map((adapter) => `--client ${adapter.id}`).join(", ");
  throw new HookNotifyError(
    "USAGE",
    `Found none of ${folders.join(", ")}. Say which client: ${names} or --client all.`,
  );
}
