// The handlers install wants in one client's file, per event: what each runs (the launcher, the
// wrapper, or node and the script), its timeout, and approve's entries.
import { RETRY_ENTRY_SECONDS } from "../core/defaults.js";
import { toClientTimeout, type ClientAdapter } from "../clients/adapter.js";
import { adapterFor } from "../clients/index.js";
import { HookNotifyError } from "../errors.js";
import type { Target } from "../core/install-target.js";
import {
  absoluteProgram,
  buildApproveCommand,
  buildHandlerCommand,
  type CommandBase,
} from "./hook-command.js";
import type { Wanted } from "./plan.js";
import { loadTemplate, type EventDefaults } from "./load-template.js";
import type { Machine, SettingsRequest } from "./prepare.js";

// Per event: the notification (template timeout unless --timeout, a command for this scope), and
// with --approve the asks, each beside or instead of it.
export async function desiredHandlers(
  target: Target,
  request: SettingsRequest,
  machine: Machine,
  script: string,
): Promise<Map<string, Wanted[]>> {
  const defaults = await loadTemplate(target.client, machine.packageRoot);
  const adapter = adapterFor(target.client);
  const base = commandBase(target, adapter, machine, script);
  const desired = new Map<string, Wanted[]>();
  for (const event of clientEvents(request.events, defaults, adapter)) {
    const timeout = request.timeout ?? defaults.get(event) ?? 10;
    desired.set(event, [
      {
        type: "command",
        ...buildHandlerCommand(
          base,
          target.client,
          timeout,
          adapter.namesEventInArgs === true ? event : undefined,
        ),
        timeout: toClientTimeout(adapter, timeout),
      },
    ]);
  }
  if (request.approve !== undefined && adapter.answersPermissions === true) {
    const ask = (timeout: number, matcher?: string): Wanted => ({
      type: "command",
      command: buildApproveCommand(base, target.client, timeout),
      timeout: toClientTimeout(adapter, timeout),
      ...(matcher === undefined ? {} : { matcher }),
    });
    const { timeout } = request.approve;
    // Instead of the client's own PermissionRequest notification (Codex): the phone gets one ask.
    desired.set("PermissionRequest", [ask(timeout)]);
    // Its AskUserQuestion goes to the phone too: a PreToolUse entry for that tool alone.
    if (adapter.questionTool !== undefined) {
      desired.set("PreToolUse", [ask(timeout, adapter.questionTool)]);
    }
    // And its MCP servers' forms (a choice the phone can make; any other form shows as before).
    if (adapter.answersForms === true) desired.set("Elicitation", [ask(timeout)]);
    // --retry: beside the "blocked" notification, the "Let it retry" ask.
    if (request.approve.retry === true && adapter.answersRetry === true) {
      const blocked = desired.get("PermissionDenied");
      if (blocked === undefined) {
        throw new HookNotifyError(
          "USAGE",
          "--retry puts the Let it retry ask beside the PermissionDenied notification: add PermissionDenied to --events, or leave out --retry.",
        );
      }
      blocked.push(ask(RETRY_ENTRY_SECONDS));
    }
  }
  return desired;
}

// What each entry runs: the launcher (user scope; node and the script on Windows) or the wrapper
// (project scope); as an argument array for a client whose plugin runs hook-notify without a
// shell (OpenCode).
function commandBase(
  target: Target,
  adapter: ClientAdapter,
  machine: Machine,
  script: string,
): CommandBase {
  const { wrapper } = target;
  if (adapter.runsArgv === true) {
    const exec =
      wrapper === undefined
        ? { command: machine.nodePath, args: [script] }
        : { command: target.scope === "user" ? wrapper.path : wrapper.command, args: [] };
    return { program: wrapper?.command ?? "", exec };
  }
  return wrapper === undefined
    ? absoluteProgram(machine.nodePath, script, machine.platform, target.client)
    : { program: wrapper.command };
}

// --events in the client's own names or in hook-notify's (Stop is Gemini's AfterAgent).
export function clientEvents(
  requested: readonly string[] | undefined,
  defaults: EventDefaults,
  adapter: ClientAdapter,
): string[] {
  if (requested === undefined) return [...defaults.keys()];
  const out = new Set<string>();
  for (const event of requested) {
    const own = defaults.has(event)
      ? event
      : [...defaults.keys()].find((name) => adapter.events[name] === event);
    if (own === undefined) {
      const known = [...defaults.keys()].join(", ");
      throw new HookNotifyError(
        "USAGE",
        `--events: "${event}" is not an event hook-notify installs for ${adapter.id}; use some of ${known}.`,
      );
    }
    out.add(own);
  }
  return [...out];
}
