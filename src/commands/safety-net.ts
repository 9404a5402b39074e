// The hook's last safety net (run.ts): whatever goes wrong, the process prints nothing to stdout
// in hook mode and exits by the hard deadline (0 in hook mode, else 1), with the run's log line
// saying what it knew so far and why it ended.
import type { Deps } from "../deps.js";
import type { ErrorCode } from "../errors.js";
import { logPath } from "../config/paths.js";
import { appendRunSomewhere } from "../journal/append.js";
import type { HookRun } from "../pipeline/run-hook.js";
import { startDetached } from "../link/start-detached.js";
import { endHook } from "../exit.js";
import { muteStdout } from "./mute-stdout.js";

// Installed before the run starts; `logCutShort` logs the run when the net ends it.
export function installSafetyNet(
  mode: "hook" | "wait" | "dry-run",
  hardDeadline: number,
  logCutShort: (code: ErrorCode) => void,
): void {
  if (mode === "hook") muteStdout();
  const bail = (code: ErrorCode): void => {
    try {
      logCutShort(code);
      // What this run wrote whole before its budget ran out is adopted by a worker (PROTOCOL.md,
      // "orphans"), started now in case none lives to look.
      if (mode === "hook" && code === "HOOK_DEADLINE") startDetached(process.env, process.cwd());
    } finally {
      endHook(mode === "hook" ? 0 : 1);
    }
  };
  process.on("uncaughtException", () => {
    bail("INTERNAL");
  });
  process.on("unhandledRejection", () => {
    bail("INTERNAL");
  });
  setTimeout(
    () => {
      bail("HOOK_DEADLINE");
    },
    Math.max(0, hardDeadline - Date.now()),
  ).unref();
}

// The one log line of a run the safety net ends: what the run knew so far, and why it ended.
export function logCutShort(
  run: HookRun,
  deps: Pick<Deps, "env" | "homedir" | "platform" | "now">,
  code: ErrorCode,
): void {
  run.record.error ??= {
    code,
    message:
      code === "HOOK_DEADLINE"
        ? "the run reached its --timeout budget and was ended (a slow disk or an overloaded machine?)"
        : "the run failed unexpectedly and was ended",
  };
  run.record.ms = deps.now() - Date.parse(run.record.time);
  appendRunSomewhere(run.record, logPath(deps), run.config?.secrets ?? []);
}
