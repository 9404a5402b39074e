// Reads the pending entries; a corrupt or truncated file is quarantined, never fatal.
import { lstat, rename, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import * as z from "../zod.js";
import { once } from "../once.js";
import { readBounded } from "../read-bounded.js";
import type { OutboxPaths } from "./paths.js";
import { entryKey, listNames, writeEntry, type OutboxEntry } from "./store.js";
import { MAX_ENTRY_BYTES } from "../core/defaults.js";

// Built on first use: a hook run that reads no entry does not load zod.
const entryShape = once(() =>
  z.looseObject({
    version: z.literal(1),
    key: z.string(),
    sinkName: z.string(),
    notification: z.looseObject({ id: z.string(), event: z.string(), title: z.string() }),
    createdAt: z.number(),
    attempts: z.number(),
    notBefore: z.number(),
    env: z.optional(z.record(z.string(), z.string())),
    fallbackOf: z.optional(z.string()),
    siblings: z.optional(z.array(z.string())),
    watch: z.optional(
      z.object({
        messageId: z.string().check(z.regex(/^[\w-]{1,128}$/)),
        everyMs: z.number().check(z.gte(5000)),
        untilMs: z.number(),
      }),
    ),
  }),
);

/** A file that could not be read as an entry, and where it went. */
export interface Quarantined {
  name: string;
  movedTo: string;
  reason: string;
}

/** What a long-lived reader (the worker) keeps between looks at the outbox, so that a look costs
 * what is new or due, not what waits: the folder's names, reused while the folder is unchanged,
 * and each parsed entry by file path. A file is written whole and renamed into place, so an
 * entry not yet due needs no look until it is (a rewrite by a flush shows then, by its stat). */
export interface EntryCache {
  files: Map<string, { version: string; entry: OutboxEntry }>;
  listings: Map<string, { mtimeMs: number; names: string[] }>;
  /** File-system calls made through this cache: listings, stats, reads (tests count them). */
  calls: { list: number; stat: number; read: number };
}

export function createEntryCache(): EntryCache {
  return { files: new Map(), listings: new Map(), calls: { list: 0, stat: 0, read: 0 } };
}

/** A folder changed within this long of its listing may change again within the same mtime tick:
 * its listing is not reused. */
const LISTING_SETTLE_MS = 1000;

// Every entry is named by what it holds: "<key>.json" (held parts: "<time>.<key>.json"), and its
// key is the one its notification id and sink name give. Anything else (a "../" key that would
// make removing it unlink a file elsewhere, a copy under another name that would be sent again
// and again) is quarantined, never delivered.
function misnamed(name: string, entry: OutboxEntry): string | undefined {
  if (entry.key !== entryKey(entry.notification.id, entry.sinkName, entry.fallbackOf, entry.watch))
    return "its key does not match its notification and sink";
  if (name.replace(/^\d{15}\./, "") !== `${entry.key}.json`) return "its file name is not its key";
  return undefined;
}

// Every readable entry in `dir`, oldest first; unreadable ones are moved to corrupt/. With a
// cache (the worker's), a file already parsed costs one stat instead of a read and a parse: a
// worker waking for retries with hundreds of entries waiting must stay cheap.
export async function readEntries(
  paths: OutboxPaths,
  dir: string,
  onQuarantine: (item: Quarantined) => void,
  cache?: EntryCache,
  now: number = Date.now(),
): Promise<OutboxEntry[]> {
  const entries: OutboxEntry[] = [];
  const listed = cache
    ? await listCached(dir, cache, now)
    : { names: await listNames(dir), changed: true };
  const { names } = listed;
  if (cache && listed.changed) forgetGone(cache, dir, names);
  for (const name of names) {
    const file = join(dir, name);
    const result = await readCached(file, cache, now);
    if (result === "gone") continue;
    // Checked once, when read: a cached entry's key was derived then.
    const reason =
      "corrupt" in result
        ? result.corrupt
        : result.fresh
          ? misnamed(name, result.entry)
          : undefined;
    if (reason === undefined && !("corrupt" in result)) {
      entries.push(result.entry);
      continue;
    }
    cache?.files.delete(file);
    const movedTo = join(paths.corrupt, `${name}.${Date.now().toString(36)}`);
    await rename(file, movedTo).then(
      () => {
        onQuarantine({ name, movedTo, reason: reason ?? "" });
      },
      () => undefined,
    );
  }
  return entries.sort((a, b) => a.createdAt - b.createdAt);
}

// The folder's names, listed again only when its mtime moved (or moved too recently to trust).
async function listCached(
  dir: string,
  cache: EntryCache,
  now: number,
): Promise<{ names: string[]; changed: boolean }> {
  const info = await stat(dir).catch(() => undefined);
  const kept = cache.listings.get(dir);
  if (info && kept?.mtimeMs === info.mtimeMs) return { names: kept.names, changed: false };
  cache.calls.list++;
  const names = await listNames(dir);
  if (info && now - info.mtimeMs > LISTING_SETTLE_MS)
    cache.listings.set(dir, { mtimeMs: info.mtimeMs, names });
  else cache.listings.delete(dir);
  return { names, changed: true };
}

async function readCached(
  file: string,
  cache: EntryCache | undefined,
  now: number,
): Promise<{ entry: OutboxEntry; fresh: boolean } | { corrupt: string } | "gone"> {
  if (!cache) return fresh(await readEntry(file));
  const hit = cache.files.get(file);
  // Not due yet: nothing to look at (the listing says it is still there).
  if (hit && hit.entry.notBefore > now) return { entry: hit.entry, fresh: false };
  cache.calls.stat++;
  const info = await lstat(file).catch(() => undefined);
  if (!info) return "gone";
  const version = `${String(info.ino)}:${String(info.size)}:${String(info.mtimeMs)}`;
  if (hit?.version === version) return { entry: hit.entry, fresh: false };
  cache.calls.read++;
  const result = await readEntry(file);
  if (result !== "gone" && !("corrupt" in result))
    cache.files.set(file, { version, entry: result });
  return fresh(result);
}

function fresh(
  result: OutboxEntry | { corrupt: string } | "gone",
): { entry: OutboxEntry; fresh: true } | { corrupt: string } | "gone" {
  return result === "gone" || "corrupt" in result ? result : { entry: result, fresh: true };
}

function forgetGone(cache: EntryCache, dir: string, names: readonly string[]): void {
  const present = new Set(names.map((name) => join(dir, name)));
  for (const file of cache.files.keys()) {
    if (file.startsWith(dir) && !present.has(file)) cache.files.delete(file);
  }
}

// The entry, "gone" when another drain removed it meanwhile, or why it is corrupt. Only a regular
// file is read, without following a link or blocking (a FIFO here must not stall the worker).
async function readEntry(file: string): Promise<OutboxEntry | { corrupt: string } | "gone"> {
  let text: string;
  try {
    text = await readBounded(file, { maxBytes: MAX_ENTRY_BYTES, noFollow: true });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT") return "gone";
    if (code === "ENOTREG" || code === "ELOOP") return { corrupt: "not a regular file" };
    if (code === "EFBIG") return { corrupt: `larger than ${MAX_ENTRY_BYTES} bytes` };
    return { corrupt: `unreadable (${code ?? "error"})` };
  }
  try {
    const parsed = entryShape().safeParse(JSON.parse(text));
    return parsed.success
      ? (parsed.data as unknown as OutboxEntry)
      : { corrupt: "not an outbox entry" };
  } catch {
    return { corrupt: "not JSON (truncated?)" };
  }
}

// `flush --retry-failed`: failed entries go back to pending with a fresh age and no backoff.
// Read like pending/: a file that is not a well-named entry goes to corrupt/, not back to pending.
export async function requeueFailed(
  paths: OutboxPaths,
  now: number,
  onQuarantine: (item: Quarantined) => void = () => undefined,
): Promise<number> {
  let count = 0;
  for (const entry of await readEntries(paths, paths.failed, onQuarantine)) {
    delete entry.failure;
    await writeEntry(paths, paths.pending, { ...entry, createdAt: now, notBefore: now });
    await unlink(join(paths.failed, `${entry.key}.json`)).catch(() => undefined);
    count++;
  }
  return count;
}
