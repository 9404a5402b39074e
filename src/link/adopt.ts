// Work a hook wrote completely but never put in place: a hook ended between its temp file and the
// rename (its --timeout budget ran out, the client killed it) leaves the file in tmp/. The worker
// that holds the lock adopts it (PROTOCOL.md, "orphans"): a first write of a pending entry
// (`<key>.<pid>.<unique>.new.tmp`, store.ts) or a hook event (`<time>-<pid>-<rand>.json.tmp`,
// inbox.ts) whose writer is dead and whose text is whole goes where its writer meant it to go.
// A file whose writer lives is left alone (it may still rename it); one that is not whole stays for
// sweepTemp. A rewrite of an entry (kind "other") is never adopted: its entry already exists, or
// was delivered since, and adopting it would send it twice.
import { existsSync, linkSync, readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { readBoundedSync } from "../read-bounded.js";
import { MAX_EVENT_BYTES } from "../core/defaults.js";
import type { OutboxPaths } from "../outbox/paths.js";

const EVENT_TEMP = /^([0-9a-z]+-(\d+)-[0-9a-z]+\.json)\.tmp$/;
const ENTRY_TEMP = /^(.+)\.(\d+)\.[0-9a-z]+\.new\.tmp$/;

/** Where an orphan goes, and whether its text is whole. */
interface Orphan {
  pid: number;
  destination: string;
  /** The other places an entry may already be (then it is not adopted). */
  elsewhere: string[];
  whole: (text: string) => boolean;
}

// Adopts every orphan in tmp/ whose writer is dead; the number adopted. Never throws.
export function adoptOrphans(paths: OutboxPaths, isAlive: (pid: number) => boolean): number {
  let names: string[];
  try {
    names = readdirSync(paths.tmp);
  } catch {
    return 0;
  }
  let adopted = 0;
  for (const name of names) {
    const orphan = orphanOf(paths, name);
    if (orphan === undefined || orphan.pid === process.pid || isAlive(orphan.pid)) continue;
    if (adopt(join(paths.tmp, name), orphan)) adopted++;
  }
  return adopted;
}

function orphanOf(paths: OutboxPaths, name: string): Orphan | undefined {
  const event = EVENT_TEMP.exec(name);
  if (event) {
    const [, file = "", pid = "0"] = event;
    return {
      pid: Number(pid),
      destination: join(paths.events, file),
      elsewhere: [],
      whole: (text) => isObjectWith(text, (o) => o.version === 1 && typeof o.payload === "string"),
    };
  }
  const entry = ENTRY_TEMP.exec(name);
  if (entry) {
    const [, key = "", pid = "0"] = entry;
    return {
      pid: Number(pid),
      destination: join(paths.pending, `${key}.json`),
      elsewhere: [join(paths.failed, `${key}.json`)],
      whole: (text) => isObjectWith(text, (o) => o.version === 1 && o.key === key),
    };
  }
  return undefined;
}

// A hard link, then the temp name goes: link never replaces a file that is already there.
function adopt(temp: string, orphan: Orphan): boolean {
  try {
    const text = readBoundedSync(temp, { maxBytes: 4 * MAX_EVENT_BYTES, noFollow: true });
    if (!orphan.whole(text)) return false;
    for (const other of orphan.elsewhere) if (existsSync(other)) return false;
    linkSync(temp, orphan.destination);
  } catch {
    return false;
  }
  try {
    unlinkSync(temp);
  } catch {
    // gone already: the destination holds it
  }
  return true;
}

function isObjectWith(text: string, check: (o: Record<string, unknown>) => boolean): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && check(value as Record<string, unknown>);
  } catch {
    return false;
  }
}
