// One line per agent client set up on this machine: its version (checked against the one
// hook-notify was verified with), whether its hooks files still hold hook-notify's entries in the
// shape its adapter writes, and whether a hook of it ran in the last day (the run log).
import { existsSync } from "node:fs";
import { parseLine } from "../journal/line.js";
import { readTail } from "../journal/read.js";
import type { ClientAdapter } from "../clients/adapter.js";
import { clients } from "../clients/index.js";
import { logPath } from "../config/paths.js";
import type { LocateInput } from "../core/install-target.js";
import type { Deps } from "../deps.js";
import { ok, warn, type CheckResult } from "../check-result.js";
import { eventsWithOurs } from "../settings/file-shape.js";
import { shapeOf } from "../settings/shapes.js";
import { allLocations, displayPath, type Location } from "../settings/locate.js";
import { readText } from "../settings/read.js";
import { compareVersions, findClientVersion, type FoundVersion } from "./client-version.js";
import { formatAge } from "./outbox-checks.js";

type ClientDeps = Pick<Deps, "env" | "homedir" | "cwd" | "now" | "platform">;

const DAY_MS = 86_400_000;
/** The end of the log doctor reads for the last runs (the log rotates at 1 MiB). */
const LOG_TAIL_BYTES = 1 << 20;

// A line for every client with a folder, a program on PATH or hook-notify's entries.
export async function checkClients(deps: ClientDeps): Promise<CheckResult[]> {
  const input: LocateInput = { home: deps.homedir, projectDir: deps.cwd, env: deps.env };
  const lastRuns = lastRunPerClient(readLogTail(logPath(deps)));
  const locations = allLocations(input); // once: every client's files, found by one walk
  const results: CheckResult[] = [];
  for (const adapter of clients) {
    const files = await filesWithOurs(adapter, locations, input.home);
    const version = findClientVersion(adapter, deps.env, deps.platform);
    const isThere = existsSync(adapter.configDir(input)) || "version" in version;
    if (!isThere && files.length === 0) continue;
    results.push(describeClient(adapter, version, files, lastRuns.get(adapter.id), deps.now()));
  }
  return results;
}

function describeClient(
  adapter: ClientAdapter,
  found: FoundVersion,
  files: readonly string[],
  lastRun: number | undefined,
  now: number,
): CheckResult {
  const check = `${adapter.name} client`;
  const isOlder = "version" in found && compareVersions(found.version, adapter.verified) < 0;
  const version =
    "version" in found
      ? found.version === adapter.verified
        ? found.version
        : `${found.version} (hook-notify verified ${adapter.verified})`
      : `version unknown: ${found.unknown}`;
  const hooks =
    files.length > 0
      ? `hook-notify in ${files.join(", ")}`
      : "hook-notify is in none of its hooks files";
  const ran =
    lastRun !== undefined && now - lastRun <= DAY_MS
      ? `last hook ${formatAge(now - lastRun)} ago`
      : "no hook ran in the last day";
  const detail = `${version}; ${hooks}; ${ran}`;
  if (files.length === 0) return warn(check, detail, `hook-notify install --client ${adapter.id}`);
  if (isOlder) {
    return warn(
      check,
      detail,
      `Update ${adapter.name} to ${adapter.verified} or later: an older one may not read these hooks.`,
    );
  }
  return ok(check, detail);
}

// The client's hooks files (every scope, here and in the home folder) that run hook-notify.
async function filesWithOurs(
  adapter: ClientAdapter,
  locations: readonly Location[],
  home: string,
): Promise<string[]> {
  const files: string[] = [];
  for (const location of locations) {
    if (location.client !== adapter.id) continue;
    const shown = displayPath(location.file, home);
    const text = await readText(location.file, shown).catch(() => undefined);
    if (eventsWithOurs(text, shapeOf(location.shape)).length > 0 && !files.includes(shown))
      files.push(shown);
  }
  return files;
}

// The newest hook run of each client in the log's lines (`hook-notify test`'s samples are none).
export function lastRunPerClient(lines: readonly string[]): Map<string, number> {
  const last = new Map<string, number>();
  for (const line of lines) {
    if (!line.includes('"client":')) continue; // cheaper than parsing: no client named
    const record = parseLine(line); // undefined: the cut first line of the tail, or a torn write
    if (record === undefined || record.outbox !== undefined || record.client === undefined)
      continue;
    if (record.via === "test") continue;
    const time = Date.parse(record.time);
    if (Number.isFinite(time) && time > (last.get(record.client) ?? -Infinity)) {
      last.set(record.client, time);
    }
  }
  return last;
}

// The log's last lines, about LOG_TAIL_BYTES of them; none when there is no log.
function readLogTail(file: string): string[] {
  let bytes = 0;
  return (
    readTail(file, (line) => {
      bytes += line.length + 1;
      return bytes >= LOG_TAIL_BYTES;
    }) ?? []
  );
}
