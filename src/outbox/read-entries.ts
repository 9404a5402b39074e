// Reads the pending entries; a corrupt or truncated file is quarantined, never fatal.
import { readFile, rename } from "node:fs/promises";
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

// Every readable entry in `dir`, oldest first; unreadable ones are moved to corrupt/.
export async function readEntries(
  paths: OutboxPaths,
  dir: string,
  onQuarantine: (item: Quarantined) => void,
): Promise<OutboxEntry[]> {
  const entries: OutboxEntry[] = [];
  for (const name of await listNames(dir)) {
    const result = await readEntry(join(dir, name));
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
