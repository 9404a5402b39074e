// The durable outbox: one JSON file per remote delivery, written atomically (temp file + rename).
// Entries name the sink and the config to re-read; they never hold sink options or secrets.
import { existsSync, mkdirSync, readdirSync, statSync, unlinkSync } from "node:fs";
import { open, readdir, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { Deps } from "../deps.js";
import { fnv1a64 } from "../fnv1a.js";
import type { Notification } from "../core/notification.js";
import { outboxPaths, type OutboxPaths } from "./paths.js";
import type { PresenceGate } from "../presence/gate-env.js";
import { observerOf } from "./pending-observers.js";

/** One pending delivery of one notification to one sink. */
export interface OutboxEntry {
  version: 1;
  /** File name without ".json": derived from the notification id and the sink name. */
  key: string;
  sinkName: string;
  /** The --config path the hook used, if any; the worker loads the same config. */
  configPath?: string;
  /** The project folder whose .hook-notify.json the hook merged, if any. */
  projectDir?: string;
  notification: Notification;
  createdAt: number;
  attempts: number;
  /** Not to be tried before this time (ms since epoch). */
  notBefore: number;
  lastError?: { code: string; message: string };
  /** "when": "away": the worker asks the presence probes first and skips it when present. */
  presence?: PresenceGate;
  /** A "waiting for you" message that takes a typed reply (replySink): the agent's pane and
   * process as the hook saw them (src/reply/PROTOCOL.md). */
  replyTo?: PresenceGate;
  /** The sink's `digest`: while away the worker holds it in digest/ (delivery/digest.ts). */
  digest?: DigestWait;
  /** An escalation's follow-up: due at notBefore, cancelled if the session was answered since. */
  escalation?: EscalationWait;
  /** A fallback: the sink that gave up on this notification first (config: `fallback`). */
  fallbackOf?: string;
  /** The fallbacks this sink handed the notification to when it gave up (each gets it once). */
  fallbackSent?: string[];
  /** The other sinks the hook gave this notification to (a fallback to one would be a copy). */
  siblings?: string[];
  /** Not a delivery: a look at the receipt of a message this sink sent (delivery/receipt-watch.ts). */
  watch?: ReceiptWatch;
  /** Set when the entry was moved to failed/. */
  failure?: { at: number; reason: string };
}

/** A digest sink's delivery: when the digest goes, and whether the sink is "when": "away" too. */
export interface DigestWait {
  /** "return" or a local time "HH:MM". */
  at: string;
  /** "when": "away": skipped while the person is there; otherwise sent then as usual. */
  awayOnly: boolean;
}

/** A follow-up waiting for the person to answer the session. */
export interface EscalationWait {
  /** The session's answer-marker key (a hash of its id). */
  session: string;
  /** The time of the notification that waits: an answer after it cancels the follow-up. */
  since: number;
  cancelOn: "prompt" | "prompt-or-moved";
}

/** A sent message whose acknowledgement the worker asks the service about, due at notBefore. */
export interface ReceiptWatch {
  /** The service's id of the message (Pushover's receipt): no secret, the token is re-read. */
  messageId: string;
  /** One look every this many ms after the first. */
  everyMs: number;
  /** The message's own window ends here: the last look is the first one after it. */
  untilMs: number;
}

/** What the hook hands over for one remote sink. */
export interface QueuedDelivery {
  notification: Notification;
  sinkName: string;
  configPath?: string | undefined;
  projectDir?: string | undefined;
  presence?: PresenceGate | undefined;
  replyTo?: PresenceGate | undefined;
  digest?: DigestWait | undefined;
  escalation?: EscalationWait | undefined;
  /** Not before this time (an escalation's window); default now. */
  notBefore?: number | undefined;
  /** Sent because this sink gave up on the notification (config: `fallback`). */
  fallbackOf?: string | undefined;
  /** Not a delivery: the worker's look at a sent message's receipt. */
  watch?: ReceiptWatch | undefined;
  /** The other sinks this notification went to or was queued for (no fallback goes to them). */
  siblings?: readonly string[] | undefined;
}

// Writes one delivery to outbox/pending and returns its key; durable before it returns.
export async function enqueue(deps: Deps, delivery: QueuedDelivery): Promise<string> {
  const paths = outboxPaths(deps);
  ensureDirs(paths);
  const entry = newEntry(delivery, deps.now());
  await writeEntry(paths, paths.pending, entry, "new");
  return entry.key;
}

// A fresh entry for one delivery: no attempt yet, due now.
export function newEntry(delivery: QueuedDelivery, now: number): OutboxEntry {
  return {
    version: 1,
    key: entryKey(delivery.notification.id, delivery.sinkName, delivery.fallbackOf, delivery.watch),
    sinkName: delivery.sinkName,
    ...(delivery.configPath ? { configPath: delivery.configPath } : {}),
    ...(delivery.projectDir ? { projectDir: delivery.projectDir } : {}),
    notification: delivery.notification,
    createdAt: now,
    attempts: 0,
    notBefore: delivery.notBefore ?? now,
    ...(delivery.presence ? { presence: delivery.presence } : {}),
    ...(delivery.replyTo ? { replyTo: delivery.replyTo } : {}),
    ...(delivery.digest ? { digest: delivery.digest } : {}),
    ...(delivery.escalation ? { escalation: delivery.escalation } : {}),
    ...(delivery.fallbackOf ? { fallbackOf: delivery.fallbackOf } : {}),
    ...(delivery.watch ? { watch: delivery.watch } : {}),
    ...(delivery.siblings?.length ? { siblings: [...delivery.siblings] } : {}),
  };
}

// Stable, file-name-safe and unique per (notification, sink): re-enqueueing overwrites. A
// fallback has its own key, so it never replaces the sink's own delivery of the notification;
// so has the look at a sent message's receipt.
export function entryKey(
  notificationId: string,
  sinkName: string,
  fallbackOf?: string,
  watch?: ReceiptWatch,
): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 60);
  const of = fallbackOf === undefined ? "" : `\0fallback\0${fallbackOf}`;
  const receipt = watch === undefined ? "" : "\0receipt";
  const hash = fnv1a64(`${notificationId}\0${sinkName}${of}${receipt}`).slice(0, 10);
  return `${safe(notificationId)}.${safe(sinkName)}.${hash}`;
}

/** A temp file's kind: "new" is a first write bound for pending/ (adoptable, see adoptTemp). */
export type TempKind = "new" | "other";

// Unique enough for a temp name that is opened with "wx" (a clash fails, it never overwrites):
// `<key>.<pid>.<time><random>.<kind>.tmp`, so a worker can tell whose it is and where it goes.
function tempName(key: string, kind: TempKind): string {
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return `${key}.${String(process.pid)}.${unique}.${kind}.tmp`;
}

// 0700 folders: the outbox holds what agents said, which is nobody else's business. Synchronous:
// six folders that exist cost a few microseconds; awaited one by one they loaded fs/promises and
// crossed libuv's thread pool six times before a cold worker's first banner (issue #41).
export function ensureDirs(paths: OutboxPaths): void {
  for (const dir of [
    paths.pending,
    paths.held,
    paths.digest,
    paths.failed,
    paths.corrupt,
    paths.tmp,
  ]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }
}

// Temp file (0600) in the same file system, fsync, rename: readers see all of it or nothing.
export async function writeEntry(
  paths: OutboxPaths,
  dir: string,
  entry: OutboxEntry,
  kind: TempKind = "other",
): Promise<void> {
  const temp = await writeTemp(paths, entry, kind);
  try {
    await rename(temp, join(dir, `${entry.key}.json`));
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  observerOf(dir)?.wrote(entry);
}

// The entry as a durable temp file (0600, fsync'd) in tmp/, ready to be renamed into place.
export async function writeTemp(
  paths: OutboxPaths,
  entry: OutboxEntry,
  kind: TempKind = "other",
): Promise<string> {
  const temp = join(paths.tmp, tempName(entry.key, kind));
  const handle = await open(temp, "wx", 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(entry)}\n`);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  return temp;
}

// Delivered: the entry is gone. A missing file is fine (another drain got there first).
export async function removeEntry(paths: OutboxPaths, key: string): Promise<void> {
  await unlink(join(paths.pending, `${key}.json`)).catch(ignoreMissing);
  observerOf(paths.pending)?.removed(key);
}

// Given up: the entry goes to failed/ with its reason, for a person (or `flush --retry-failed`).
export async function moveToFailed(
  paths: OutboxPaths,
  entry: OutboxEntry,
  reason: string,
  now: number,
) {
  await writeEntry(paths, paths.failed, { ...entry, failure: { at: now, reason } });
  await removeEntry(paths, entry.key);
}

// Names of the .json files in a folder; a missing folder is empty.
export async function listNames(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => name.endsWith(".json")).sort();
  } catch (error) {
    ignoreMissing(error);
    return [];
  }
}

function ignoreMissing(error: unknown): void {
  if ((error as { code?: string }).code !== "ENOENT") throw error;
}

// Temp files left by a process killed mid-write are swept after an hour (never a live write).
export function sweepTemp(paths: OutboxPaths, now: number): void {
  for (const name of existsSync(paths.tmp) ? readdirSync(paths.tmp) : []) {
    const file = join(paths.tmp, name);
    try {
      if (now - statSync(file).mtimeMs > 3_600_000) unlinkSync(file);
    } catch {
      // gone meanwhile, or not ours to remove: left
    }
  }
}
