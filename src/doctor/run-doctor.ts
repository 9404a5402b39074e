// Runs every doctor check in order and returns the findings as data; printing is the command's job.
import type { LoadedConfig } from "../config/load-config.js";
import type { Deps } from "../deps.js";
import type { Config, SinkEntry } from "../core/config.js";
import { dndChanges } from "../pipeline/dnd.js";
import { approveInstalled, checkApprove } from "./approve-checks.js";
import { fail, ok, type CheckResult } from "../check-result.js";
import { checkConfig } from "./config-checks.js";
import { checkEvents, checkOutbox } from "./outbox-checks.js";
import { checkPresence, type PresenceUsers } from "./presence-checks.js";
import { checkSettings } from "./settings-checks.js";
import { checkClients } from "./client-checks.js";
import { checkWorker } from "./worker-checks.js";
import { checkLog, checkNode, checkSsh } from "./system-checks.js";
import { findSink, isLocalSink } from "../sinks/index.js";

type DoctorDeps = Pick<
  Deps,
  "env" | "homedir" | "platform" | "cwd" | "now" | "arch" | "osRelease" | "ppid"
>;

// node → config → each sink → usable sinks → installed hooks → each client → outbox → worker
// → log.
export async function runDoctor(
  deps: DoctorDeps,
  options: { configPath: string | undefined; nodeVersion: string; deep?: boolean | undefined },
): Promise<CheckResult[]> {
  const results = [checkNode(options.nodeVersion)];
  const config = checkConfig(deps, options.configPath);
  results.push(...config.results);
  const entries = Object.values(config.loaded.value.sinks).filter((entry) => entry.enabled);
  const ssh = checkSsh(deps, entries, config.loaded.value.localSinksOverSsh);
  if (ssh) results.push(ssh);
  const sinkResults = await Promise.all(
    entries.map((entry) => checkSink(entry, deps, config.loaded.secrets)),
  );
  // Desktop and sound that the ssh or container rule skips deliver nothing here, working or not.
  const skipped = ssh?.status === "warn" ? localSkipped(entries, config.loaded) : [];
  results.push(...sinkResults, summarizeSinks(entries, sinkResults, config.loaded, skipped));
  // The checks below wait on programs (gdbus, the presence probes, clients' --version) and
  // files: started together, their results kept in this order. A program is started only for
  // what this config uses (--deep: everything).
  const all = options.deep === true;
  const dnd = config.loaded.value.dnd;
  const hasDesktop = entries.some((entry) => entry.type === "desktop");
  const readDnd = all || entries.some((entry) => changedByDnd(entry, dnd));
  const desktopState =
    hasDesktop || readDnd || entries.some((entry) => entry.type === "sound")
      ? import("./desktop-state-checks.js").then(async ({ checkDnd, checkFocus }) => [
          await checkDnd(deps, dnd, readDnd),
          ...(hasDesktop ? [checkFocus(deps)] : []),
        ])
      : Promise.resolve([]);
  // --deep: a real banner, read back from the notification daemon (it shows on the screen).
  const deep = options.deep
    ? import("./deep-banner.js").then(async ({ checkBannerDeep }) => [await checkBannerDeep(deps)])
    : Promise.resolve([]);
  const later = await Promise.all([
    desktopState,
    deep,
    checkApprove(config.loaded.value, deps),
    checkSettings({ home: deps.homedir, projectDir: deps.cwd, env: deps.env }),
    checkClients(deps),
    checkPresence(deps, presenceUsers(config.loaded.value, entries, deps, all)),
    Promise.all([checkOutbox(deps), checkEvents(deps), checkWorker(deps)]),
  ]);
  results.push(...later.flat(), checkLog(deps));
  const service = config.loaded.value.service;
  if (service) {
    const { checkService } = await import("./service-checks.js");
    results.push(...(await checkService(service, deps.env, deps.now(), config.loaded.secrets)));
  }
  return results;
}

// Sinks whose delivery Do Not Disturb changes (pipeline/dnd.ts): only for them is it read.
function changedByDnd(entry: SinkEntry, mode: Config["dnd"]): boolean {
  const sink = findSink(entry.type);
  return sink !== undefined && dndChanges({ sink, entry }, mode);
}

// Who in this config asks the presence probes (delivery/presence-gate.ts, approve/gate.ts).
function presenceUsers(
  config: Config,
  entries: readonly SinkEntry[],
  deps: DoctorDeps,
  all: boolean,
): PresenceUsers {
  const awaySinks = entries
    .filter((entry) => entry.when === "away" || entry.digest !== undefined)
    .map((entry) => entry.name);
  const others = [
    ...(config.escalate || entries.some((entry) => entry.escalate)
      ? ["follow-ups (escalate)"]
      : []),
    ...(config.approveWhen === "away" && approveInstalled(config, deps)
      ? ['approve ("approveWhen": "away")']
      : []),
  ];
  return { awaySinks, others, probe: all || awaySinks.length > 0 || others.length > 0 };
}

// True when doctor should exit 1: something stops every notification.
export function isBlocked(results: readonly CheckResult[]): boolean {
  return results.some((result) => result.status === "fail" && result.blocks === true);
}

async function checkSink(
  entry: SinkEntry,
  deps: DoctorDeps,
  secrets: readonly string[],
): Promise<CheckResult> {
  const sink = findSink(entry.type);
  if (sink) return sink.check(entry, { deps, secrets });
  return ok(`${entry.type} (${entry.name})`, "no check for this sink type");
}

function localSkipped(entries: readonly SinkEntry[], loaded: LoadedConfig): string[] {
  const keepAll = loaded.value.localSinksOverSsh;
  return entries
    .filter((e) => isLocalSink(e.type) && !(e.localSinksOverSsh ?? keepAll))
    .map((e) => e.name);
}

function summarizeSinks(
  entries: readonly SinkEntry[],
  results: readonly CheckResult[],
  loaded: LoadedConfig,
  skipped: readonly string[],
): CheckResult {
  const broken = new Set(results.filter((r) => r.status === "fail").map((r) => r.sink));
  const usable = entries
    .filter((entry) => !broken.has(entry.name) && !skipped.includes(entry.name))
    .map((entry) => entry.name);
  if (usable.length > 0) {
    return ok("sinks", `${usable.length} of ${entries.length} can deliver: ${usable.join(", ")}`);
  }
  const why =
    entries.length === 0
      ? "no sink is configured and enabled"
      : skipped.length > 0
        ? `no sink can deliver (${skipped.join(", ")} skipped here: see above)`
        : "no sink can deliver";
  const where = loaded.path ?? "a config file";
  return fail("sinks", why, `Fix the sinks above, or add one to ${where}: hook-notify init`, {
    blocks: true,
  });
}
