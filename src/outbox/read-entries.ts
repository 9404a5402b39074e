// Reads the pending entries; a corrupt or truncated file is quarantined, never fatal.
import { readFile, rename, stat } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod/mini";
import type { OutboxPaths } from "./paths.js";
import { listNames, type OutboxEntry } from "./store.js";

const entryShape = z.looseObject({
  version: z.literal(1),
  key: z.string(),
  sinkName: z.string(),
  notification: z.looseObject({ id: z.string(), event: z.string(), title: z.string() }),
  createdAt: z.number(),
  attempts: z.number(),
  notBefore: z.number(),
});

/** A file that could not be read as an entry, and where it went. */
export interface Quarantined {
  name: string;
  movedTo: string;
  reason: string;
}

/** Parsed entries by file path, reused while the file (inode, size, mtime) is unchanged. */
export type EntryCache = Map<string, { version: string; entry: OutboxEntry }>;

// Every readable entry in `dir`, oldest first; unreadable ones are moved to corrupt/. With a
// cache (the worker's), a file already parsed costs one stat instead of a read and a parse: a
// worker waking for retries with hundreds of entries waiting must stay cheap.
export async function readEntries(
  paths: OutboxPaths,
  dir: string,
  onQuarantine: (item: Quarantined) => void,
  cache?: EntryCache,
): Promise<OutboxEntry[]> {
  const entries: OutboxEntry[] = [];
  const names = await listNames(dir);
  if (cache) forgetGone(cache, dir, names);
  for (const name of names) {
    const result = await readCached(join(dir, name), cache);
    if (result === "gone") continue;
    if (!("corrupt" in result)) {
      entries.push(result);
      continue;
    }
    const movedTo = join(paths.corrupt, `${name}.${Date.now().toString(36)}`);
    await rename(join(dir, name), movedTo).then(
      () => {
        onQuarantine({ name, movedTo, reason: result.corrupt });
      },
      () => undefined,
    );
  }
  return entries.sort((a, b) => a.createdAt - b.createdAt);
}

async function readCached(
  file: string,
  cache: EntryCache | undefined,
): Promise<OutboxEntry | { corrupt: string } | "gone"> {
  if (!cache) return readEntry(file);
  const info = await stat(file).catch(() => undefined);
  if (!info) return "gone";
  const version = `${String(info.ino)}:${String(info.size)}:${String(info.mtimeMs)}`;
  const hit = cache.get(file);
  if (hit?.version === version) return hit.entry;
  const result = await readEntry(file);
  if (result !== "gone" && !("corrupt" in result)) cache.set(file, { version, entry: result });
  return result;
}

function forgetGone(cache: EntryCache, dir: string, names: readonly string[]): void {
  const present = new Set(names.map((name) => join(dir, name)));
  for (const file of cache.keys()) {
    if (file.startsWith(dir) && !present.has(file)) cache.delete(file);
  }
}

// The entry, "gone" when another drain removed it meanwhile, or why it is corrupt.
async function readEntry(file: string): Promise<OutboxEntry | { corrupt: string } | "gone"> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return "gone";
    return { corrupt: `unreadable (${(error as { code?: string }).code ?? "error"})` };
  }
  try {
    const parsed = entryShape.safeParse(JSON.parse(text));
    return parsed.success
      ? (parsed.data as unknown as OutboxEntry)
      : { corrupt: "not an outbox entry" };
  } catch {
    return { corrupt: "not JSON (truncated?)" };
  }
}
