// Reads the pending entries; a corrupt or truncated file is quarantined, never fatal.
import { rename, unlink } from "node:fs/promises";
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

// Every readable entry in `dir`, oldest first; unreadable ones are moved to corrupt/. `reuse`
// (the worker's due-time index, pending-index.ts) gives the entry it holds for a name already
// read: that name costs no read and no parse.
export async function readEntries(
  paths: OutboxPaths,
  dir: string,
  onQuarantine: (item: Quarantined) => void,
  reuse?: (name: string, file: string) => Promise<OutboxEntry | undefined>,
): Promise<OutboxEntry[]> {
  const entries: OutboxEntry[] = [];
  for (const name of await listNames(dir)) {
    const file = join(dir, name);
    const kept = await reuse?.(name, file);
    if (kept) {
      entries.push(kept);
      continue;
    }
    const result = await readEntry(file);
    if (result === "gone") continue;
    const reason = "corrupt" in result ? result.corrupt : misnamed(name, result);
    if (reason === undefined && !("corrupt" in result)) {
      entries.push(result);
      continue;
    }
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
