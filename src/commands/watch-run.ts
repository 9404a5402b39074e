// The watch loop: poll, print one line per announcement, sleep (interval, jitter, backoff), until
// SIGINT/SIGTERM or, with --once, after one poll.
import { loadConfig, type LoadedConfig } from "../config/load-config.js";
import type { ServiceConfig } from "../core/config.js";
import { createDeps } from "../deps.js";
import { scrub } from "../redact.js";
import { serviceProblems } from "./service-command.js";
import { describeWait } from "../service/service-errors.js";
import { pollOnce, type PollResult } from "../service/watch/poll.js";
import { nextDelay } from "../service/watch/schedule.js";

export interface WatchRun {
  configPath: string | undefined;
  once: boolean;
  digest: boolean;
  intervalSeconds: number | undefined;
  computerIds?: string[] | undefined;
  hostId?: string | undefined;
}

// Returns the exit code: 0, or 1 when the config has no service or (--once) a part failed.
export async function runWatch(options: WatchRun): Promise<number> {
  const deps = createDeps();
  const loaded = loadConfig(deps, { configPath: options.configPath });
  const service = serviceOrSay(loaded);
  if (!service) return 1;
  const stop = new AbortController();
  const onSignal = (): void => {
    stop.abort();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const intervalMs = (options.intervalSeconds ?? service.intervalMs / 1000) * 1000;
  let failures = 0;
  try {
    for (;;) {
      const result = await pollOnce(deps, loaded, service, {
        digest: options.digest,
        computerIds: options.computerIds?.length ? options.computerIds : service.computers,
        hostId: options.hostId ?? service.hostId,
        configPath: options.configPath,
        signal: stop.signal,
      });
      report(result, loaded.secrets);
      const retryAfterMs = Math.max(0, ...result.errors.map((e) => e.retryAfterMs ?? 0));
      if (options.once) return onceExit(result, retryAfterMs);
      failures = result.errors.length > 0 ? failures + 1 : 0;
      const delay = nextDelay({ intervalMs, failures, retryAfterMs, random: Math.random });
      if (delay.clampedFrom !== undefined)
        console.error(
          `hook-notify watch: asked to wait ${describeWait(delay.clampedFrom)}; waiting ${describeWait(delay.ms)}, the longest wait between polls.`,
        );
      else if (result.errors.length > 0)
        console.error(`hook-notify watch: next poll in ${describeWait(delay.ms)}.`);
      if (!(await sleep(delay.ms, stop.signal))) return 0;
    }
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

// Prints the config's problems; returns its service, or undefined after saying why there is none
// (an unset ${VAR} in "service" is one of the problems printed, so no second line for it).
function serviceOrSay(loaded: LoadedConfig): ServiceConfig | undefined {
  if (loaded.error)
    console.error(`hook-notify watch: ${scrub(loaded.error.message, loaded.secrets)}`);
  for (const issue of loaded.issues)
    console.error(`hook-notify watch: ${scrub(issue, loaded.secrets)}`);
  const service = loaded.value.service;
  if (!service && serviceProblems(loaded.issues).length === 0)
    console.error(
      'hook-notify watch: no "service" in the config. Add "service": {"baseUrl": "https://…", "apiKey": "${FACTORY_API_KEY}"} (see hook-notify watch --help).',
    );
  return service;
}

// The exit code of `--once`, after saying when to run again if the service asked to wait.
function onceExit(result: PollResult, retryAfterMs: number): number {
  if (retryAfterMs > 0)
    console.error(
      `hook-notify watch: --once does not wait: run it again in ${describeWait(retryAfterMs)} or later.`,
    );
  return result.errors.length > 0 || result.busy ? 1 : 0;
}

function report(result: PollResult, secrets: readonly string[]): void {
  if (result.busy) console.error("hook-notify watch: another watch is polling right now; skipped.");
  for (const notification of result.announced) {
    console.log(`${notification.event}: ${scrub(notification.title, secrets)}`);
  }
  for (const warning of result.warnings) console.error(`hook-notify watch: ${warning}`);
  for (const error of result.errors) {
    console.error(`hook-notify watch: ${error.code}: ${scrub(error.message, secrets)}`);
  }
}

// True after the delay, false when stopped first.
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const timer = setTimeout(() => {
      resolve(true);
    }, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve(false);
      },
      { once: true },
    );
  });
}
