// A config that does not parse (the built-in default then delivers) or has an invalid part (the
// rest still delivers) is announced once per version of the file: on the hook's stderr and as one
// desktop banner, from the first hook run that loads it (a changed file takes the full path: the
// worker's stamp no longer holds it). `log` and `doctor` show it every time. The marker, one empty
// file per version (its hash) under seen/, makes it once across every hook and the worker.
import { join } from "node:path";
import type { LoadedConfig } from "../config/load-config.js";
import { defaultConfig } from "../config/default-config.js";
import type { Deps } from "../deps.js";
import { send } from "../delivery/send.js";
import { fnv1a64 } from "../fnv1a.js";
import { scrub } from "../redact.js";
import { findSink } from "../sinks/index.js";
import { stateDir } from "../state-dir.js";
import type { Notification } from "../core/notification.js";
import { claimMarker } from "./seen-markers.js";
import { CONFIG_NOTICE_KEEP_SECONDS } from "../core/defaults.js";

const BANNER_MS = 3_000;

/** The lines to print, when this run is the one that announces the config's problems. */
export async function announceConfigProblems(
  config: LoadedConfig,
  deps: Deps,
): Promise<string[] | undefined> {
  const problems = config.error ? [config.error.message] : config.located;
  if (problems.length === 0) return undefined;
  const version = config.hash ?? fnv1a64(problems.join("\n"));
  const name = `config-${version}-${String(CONFIG_NOTICE_KEEP_SECONDS)}`;
  const dir = join(stateDir(deps), "seen");
  if (!claimMarker(dir, name, Infinity, deps.now())) return undefined;
  const meanwhile = config.error
    ? "Until it is fixed, the built-in default (desktop and sound) delivers instead."
    : "The rest of the config still delivers; the entries named above are left out.";
  const lines = [
    "the config has a problem (said once per change of the file):",
    ...problems.map((problem) => `  ${scrub(problem, config.secrets)}`),
    `  ${meanwhile} Check it again: hook-notify doctor`,
  ];
  await showBanner(lines, problems.length, deps);
  return lines;
}

// One desktop banner, best effort: a machine without a desktop just does not show it.
async function showBanner(lines: string[], count: number, deps: Deps): Promise<void> {
  const sink = findSink("desktop");
  const entry = defaultConfig().value.sinks["desktop"];
  if (!sink || !entry) return;
  const first = (lines[1]?.trim() ?? "").replace(/\. Fix the file, then check it:.*$/, "");
  const more = count > 1 ? ` (and ${String(count - 1)} more)` : "";
  const notification: Notification = {
    id: `config-${String(deps.now())}`,
    event: "Notification",
    failure: true,
    level: "failure",
    title: "hook-notify: your config has a problem",
    body: `${first}${more}\nRun: hook-notify doctor`,
    project: "hook-notify",
    timestamp: new Date(deps.now()).toISOString(),
    raw: {},
  };
  try {
    // Through the one send (delivery/send.ts): its deadline rule, with this notice's short bound.
    await send({
      sink,
      options: entry.options,
      notification,
      sinkName: "config",
      timeoutMs: BANNER_MS,
      deps,
      wait: false,
      signal: new AbortController().signal,
      secrets: [],
    });
  } catch {
    // No desktop here: stderr, log and doctor still say it.
  }
}
