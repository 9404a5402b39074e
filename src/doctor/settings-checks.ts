// Where hook-notify is installed (client, scope, file), with each entry's timeout, and files the
// client would reject. Reads with the same code install uses; writes nothing.
import { existsSync } from "node:fs";
import type { Client } from "../core/hook-event.js";
import { adapterFor, clientNames } from "../clients/index.js";
import { fromClientTimeout } from "../clients/adapter.js";
import { programPaths } from "../settings/hook-command.js";
import { checkText } from "../settings/jsonc-policy.js";
import { findDoubleRuns, type Installed } from "../settings/double-runs.js";
import { findOurs } from "../settings/jsonc-edit.js";
import { isRecord } from "../settings/hook-schema.js";
import { shapeOf } from "../settings/shapes.js";
import { allLocations, displayPath } from "../settings/locate.js";
import { type FileShape, type LocateInput } from "../core/install-target.js";
import { readText } from "../settings/read.js";
import { eventMapOf } from "../settings/file-shape.js";
import { fail, ok, warn, type CheckResult } from "../check-result.js";
import { launcherPath } from "../settings/launcher.js";
import {
  checkLauncher,
  foreignLauncher,
  isLauncher,
  isOlderScript,
  oldStyleEntry,
  olderScript,
} from "./launcher-checks.js";

/** One file's hook-notify entries: event → each entry's timeout in the file's order (undefined when
 * none is set); an event may hold two (a notification and `approve --retry`'s ask). */
type Entries = Map<string, (number | undefined)[]>;

// One result per file that runs hook-notify or that its client would reject, then duplicates.
export async function checkSettings(input: LocateInput): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  const installed: Installed[] = [];
  const seen = new Set<string>();
  for (const location of allLocations(input)) {
    if (seen.has(location.file)) continue;
    seen.add(location.file);
    const shown = displayPath(location.file, input.home);
    const check = `${adapterFor(location.client).name} (${location.scope})`;
    const isLegacy = location.isLegacy === true;
    const shape = shapeOf(location.shape);
    let root: unknown;
    try {
      const text = await readText(location.file, shown);
      if (text === undefined) continue;
      // A JSON file must be one its client reads; a plugin of ours is code, read for its entries.
      if (shape.comments === "client") {
        checkText(text, location.client, shown, isLegacy ? "keep" : "refuse");
      }
      root = shape.read(text);
    } catch (error) {
      const message = (error as Error).message;
      results.push(
        isLegacy
          ? warn(check, message, "droid ignores this file's hooks until it is valid JSON.")
          : fail(check, message, "Fix the file (hook-notify install --fix-jsonc rewrites JSONC).", {
              blocks: true,
            }),
      );
      continue;
    }
    const entries = ourEntries(root, location.shape);
    if (entries.size === 0) continue;
    installed.push({ ...location, shown, events: [...entries.keys()] });
    results.push(...describeEntries(check, shown, entries, location.client, location.scope));
    results.push(...checkPaths(check, shown, root, location, input));
  }
  if (installed.length === 0) {
    results.push(
      warn(
        "hooks",
        `hook-notify is not in any hooks file of ${clientNames("or")}`,
        "hook-notify install",
      ),
    );
  }
  for (const here of installed) {
    const others = installed.filter((other) => other !== here);
    for (const message of findDoubleRuns(here, others)) {
      results.push(warn("duplicates", message, "Keep one copy (see above)."));
    }
  }
  return dedupe(results);
}

// node and the script as written into the file must still be there: a Node version manager
// upgrade (nvm, fnm, Volta) or a moved checkout leaves the hook pointing at nothing. A launcher
// is asked what it would run.
function checkPaths(
  check: string,
  shown: string,
  root: unknown,
  location: { client: Client; scope: string; shape: FileShape },
  input: LocateInput,
): CheckResult[] {
  const paths = entryPaths(root, location.shape);
  const results: CheckResult[] = [];
  for (const path of paths) {
    if (!existsSync(path)) {
      results.push(
        fail(
          check,
          `${shown}: ${path} no longer exists, so the client cannot start hook-notify from here (did a Node version manager upgrade move node?)`,
          `With the node you use now, run again: hook-notify install --client ${location.client} --scope ${location.scope}`,
        ),
      );
    } else if (isLauncher(path)) {
      // Only the launcher install writes for this user is run; one a file names elsewhere (a
      // cloned repository's settings) is code doctor has no business starting.
      const shownPath = displayPath(path, input.home);
      results.push(
        path === launcherPath(location.client, input)
          ? checkLauncher(check, path, shownPath, input.env)
          : foreignLauncher(check, shownPath, location.client, location.scope),
      );
    } else if (isOlderScript(path)) {
      results.push(olderScript(check, shown, path));
    }
  }
  const runsNode = paths.some((path) => /(^|[\\/])node(\.exe)?$/.test(path));
  if (runsNode && location.scope === "user" && !/^[A-Za-z]:[\\/]/.test(paths[0] ?? "")) {
    results.push(oldStyleEntry(check, shown, location.client));
  }
  return results;
}

// The absolute paths our entries in one file start with (node and the script, or a launcher).
function entryPaths(root: unknown, shape: FileShape): string[] {
  const map = eventMapOf(root, shapeOf(shape));
  if (!isRecord(map)) return [];
  const paths = new Set<string>();
  for (const groups of Object.values(map)) {
    for (const found of findOurs(groups)) {
      const command = found.value["command"];
      if (typeof command !== "string") continue;
      for (const path of programPaths(command, found.value["args"])) paths.add(path);
    }
  }
  return [...paths];
}

function ourEntries(root: unknown, shape: FileShape): Entries {
  const map = eventMapOf(root, shapeOf(shape));
  const entries: Entries = new Map();
  if (!isRecord(map)) return entries;
  for (const [event, groups] of Object.entries(map)) {
    const ours = findOurs(groups);
    if (ours.length === 0) continue;
    const timeouts = ours.map(({ value }) => value["timeout"]);
    entries.set(
      event,
      timeouts.map((timeout) => (typeof timeout === "number" ? timeout : undefined)),
    );
  }
  return entries;
}

function describeEntries(
  check: string,
  shown: string,
  entries: Entries,
  client: Client,
  scope: string,
): CheckResult[] {
  // The file holds the client's unit (Gemini counts milliseconds); doctor speaks seconds.
  const seconds = (timeout: number | undefined) =>
    timeout === undefined
      ? "(no timeout)"
      : `${String(fromClientTimeout(adapterFor(client), timeout))} s`;
  const list = [...entries]
    .map(([event, timeouts]) => `${event} ${timeouts.map(seconds).join(" and ")}`)
    .join(", ");
  const results = [ok(check, `${shown}: ${list}`)];
  if (entries.get("SessionEnd")?.includes(undefined)) {
    results.push(
      warn(
        check,
        `${shown}: SessionEnd has no timeout, so it gets about 1.5 s and remote sinks may miss it`,
        `hook-notify install --client ${client} --scope ${scope}`,
      ),
    );
  }
  return results;
}

// Two files warning about each other would say the same thing twice.
function dedupe(results: CheckResult[]): CheckResult[] {
  const seen = new Set<string>();
  return results.filter((r) => {
    const key = `${r.check}\n${r.detail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
