// The outbox backlog: deliveries waiting (pending/, and SubagentStop events held for coalescing in
// held/) or given up (failed/), and the oldest one's age.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Deps } from "../deps.js";
import { outboxPaths } from "../outbox/paths.js";
import { listNames } from "../outbox/store.js";
import { ok, warn, type CheckResult } from "../check-result.js";

// Reads file names and times only: doctor never moves or delivers an entry.
export async function checkOutbox(
  deps: Pick<Deps, "env" | "homedir" | "platform" | "now">,
): Promise<CheckResult> {
  const paths = outboxPaths(deps);
  const pending = await listNames(paths.pending).catch(() => []);
  const failed = await listNames(paths.failed).catch(() => []);
  const held = await heldFiles(paths.held);
  if (pending.length + failed.length + held.length === 0) return ok("outbox", "empty");
  const files = [
    ...pending.map((name) => join(paths.pending, name)),
    ...failed.map((name) => join(paths.failed, name)),
    ...held,
  ];
  const times = await Promise.all(
    files.map((file) =>
      stat(file).then(
        (s) => s.mtimeMs,
        () => deps.now(),
      ),
    ),
  );
  const age = formatAge(deps.now() - Math.min(...times));
  const fix = failed.length > 0 ? "hook-notify flush --retry-failed" : "hook-notify flush";
  return warn(
    "outbox",
    `${pending.length} pending, ${held.length === 0 ? "" : `${held.length} held for coalescing, `}${failed.length} failed, oldest ${age} old (${paths.root})`,
    fix,
  );
}

// Every part in every held group (a group is a folder of .json files).
async function heldFiles(root: string): Promise<string[]> {
  const groups = await readdir(root).catch(() => [] as string[]);
  const lists = await Promise.all(
    groups.map(async (group) =>
      (await listNames(join(root, group)).catch(() => [])).map((name) => join(root, group, name)),
    ),
  );
  return lists.flat();
}

// "45 s", "12 min", "3 h", "2 d"
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} d`;
}
