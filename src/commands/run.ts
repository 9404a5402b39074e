import { createDeps, type Deps } from "../deps.js";
import type { Client } from "../core/hook-event.js";
import { startRecord } from "../journal/append.js";
import { textInput, type InputSource } from "../input-source.js";
import { hookBudget } from "../pipeline/deadline.js";
import { runHook, type HookRun, type WorkerLink } from "../pipeline/run-hook.js";
import { endHook, exitWhenDone } from "../exit.js";
import { report } from "./run-report.js";
import { say } from "./run-output.js";
import { installSafetyNet, logCutShort } from "./safety-net.js";

export interface RunArgs {
  config?: string | undefined;
  /** The budget the client gives this hook entry, in seconds. */
  timeout?: number | undefined;
  client?: Client | undefined;
  /** The event's name when the payload has none (Copilot CLI's entries pass --event). */
  event?: string | undefined;
  /** The event as an argument (Codex's notify program), read instead of stdin. */
  payload?: string | undefined;
  dryRun: boolean;
  wait: boolean;
  /** Flags the hook does not know, as written (hook-argv.ts): the run refuses them. */
  unknownFlags?: readonly string[] | undefined;
}

/** What the fast path (fast-hook.ts) hands over when the live worker cannot take the event. */
export interface Handover {
  /** The event as read so far (and the rest of stdin after it), instead of stdin. */
  input?: InputSource | undefined;
  /** When the hook started (ms since the epoch): the --timeout budget counts from here. */
  started?: number | undefined;
}

// The hook command: never exit 2, never a byte on stdout in hook mode, never past --timeout.
export async function runCommand(args: RunArgs, handover: Handover = {}): Promise<void> {
  if (args.unknownFlags !== undefined && args.unknownFlags.length > 0) {
    // A typo (`--dry-rn`) must never send for real: refused before stdin is read. Exit 1, as
    // every hook failure: 2 would block a Stop.
    const { unknownFlagMessage } = await import("../did-you-mean.js");
    const { RUN_FLAGS } = await import("./run-flags.js");
    const known = [...Object.keys(RUN_FLAGS), "help", "version", "color", "no-color"];
    for (const flag of args.unknownFlags) console.error(unknownFlagMessage(flag, known));
    console.error("hook-notify: nothing was sent. The hook's options: hook-notify help run");
    exitWhenDone(1);
    return;
  }
  const mode = args.dryRun ? "dry-run" : args.wait ? "wait" : "hook";
  const started = handover.started ?? Date.now();
  const budget = hookBudget(started, args.timeout);
  const deps = createDeps(args.payload === undefined ? handover.input : textInput(args.payload));
  // Filled in by runHook as it goes; logged here if the safety net ends the run first.
  const run: HookRun = { record: startRecord(started) };
  let finished = false;
  installSafetyNet(mode, budget.hardDeadline, (code) => {
    if (!finished && mode !== "dry-run") logCutShort(run, deps, code);
  });
  if (deps.stdin.isTTY) {
    // A person who typed `hook-notify` to get started: the three first steps, not a wait on stdin.
    console.error(
      [
        "hook-notify runs as your coding agent's hook (it reads one event on stdin). First time?",
        "  hook-notify install   add it to your agents' hooks (shows the change, asks first)",
        "  hook-notify test      send a sample notification to every sink",
        "  hook-notify doctor    check that notifications can work here",
        "All commands: hook-notify --help",
      ].join("\n"),
    );
    endHook(1);
  }
  await runHook(deps, {
    configPath: args.config,
    client: args.client,
    event: args.event,
    mode,
    deadline: budget.deadline,
    explicitTimeout: args.timeout !== undefined,
    run,
    link: hookLink(deps, args, started, mode === "hook"),
  });
  finished = true;
  // Once per version of the config file (config-notice.ts), also when a worker has the event.
  if (mode === "hook") for (const line of run.configNotice ?? []) say(`hook-notify: ${line}`);
  if (run.handedOver) endHook(0);
  if (deps.env.HOOK_NOTIFY_DEBUG === "1") console.error(JSON.stringify(run.record));
  const failed = report(run, mode, deps);
  if (mode === "hook") endHook(failed ? 1 : 0);
  exitWhenDone(failed ? 1 : 0);
}

// What a run of the hook queued is sent by a worker: one is started, or the live one is asked
// (link/spawn.ts, loaded only when something was queued).
export async function startWorkerFor(deps: Deps): Promise<void> {
  const { startWorker } = await import("../link/spawn.js");
  await startWorker(deps);
}

// The run's seam to the worker (run-hook.ts WorkerLink). Every hook hands its event to a worker
// (src/link/PROTOCOL.md); HOOK_NOTIFY_FAST=0 keeps the whole run in the hook, as before the
// worker ran events (a way to rule the link out), and so do --wait and --dry-run. The notify
// tool (mcp-run.ts) hands its events over the same way.
export function hookLink(deps: Deps, args: RunArgs, started: number, hands: boolean): WorkerLink {
  const handOver =
    hands && deps.env.HOOK_NOTIFY_FAST !== "0"
      ? async (raw: string, secrets: readonly string[]): Promise<string> => {
          const { handOverEvent } = await import("../link/hand-over.js");
          const { config, timeout, client, event } = args;
          const handed = { config, timeout, client, event };
          return handOverEvent(deps, { raw, secrets, args: handed, started });
        }
      : undefined;
  return { handOver, whenQueued: startWorkerFor };
}
