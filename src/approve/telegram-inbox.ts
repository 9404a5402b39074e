// How approvals waiting at the same time share one bot. Telegram lets one getUpdates run per bot
// (a second one ends the first with 409 Conflict), and getUpdates confirms every update below its
// offset, whoever it was for. So one waiting approve at a time is the poller (it holds poll.lock),
// and it routes every press it reads before it confirms it: a press for another waiting request
// goes into that request's file in inbox/, which its approve reads. The next offset is kept in a
// file, so the next poller goes on where this one stopped. A request's first accepted press
// creates used/<request> (O_EXCL): a second press of it is a replay, whoever reads it. A typed
// reply names only the message it answers: messages/<message id> says whose request that is.
// Folder: <state>/telegram/<bot id>/ (the bot id is the token's public part), mode 0700.
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { toHookNotifyError } from "../errors.js";
import { processAlive } from "../process-alive.js";
import type { Press } from "./telegram-bot.js";

/** A lock older than the longest possible wait (approveSeconds ≤ 570) belongs to nobody. */
const LOCK_STALE_MS = 10 * 60_000;
/** Inbox files and used marks older than this are removed by the poller. */
const KEEP_MS = 24 * 60 * 60_000;

const SUBS = ["inbox", "used", "messages"];

/** The shared folder of one bot on this machine. */
export interface Inbox {
  dir: string;
}

// <state>/telegram/<bot id>; created 0700 on first use.
export function openInbox(stateDir: string, botToken: string): Inbox {
  const botId = /^\d+/.exec(botToken)?.[0] ?? "bot";
  const dir = join(stateDir, "telegram", botId);
  for (const sub of SUBS) mkdirSync(join(dir, sub), { recursive: true, mode: 0o700 });
  return { dir };
}

// Takes poll.lock when free (or left by a process that is gone). True when this process holds it.
export function takePollLock(inbox: Inbox, now: number): boolean {
  const { pid } = process;
  const path = join(inbox.dir, "poll.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      try {
        writeSync(fd, String(pid));
      } finally {
        closeSync(fd);
      }
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return false;
      if (!isStale(path, now)) return false;
      rmSync(path, { force: true });
    }
  }
  return false;
}

// Gives poll.lock back, if it is still ours.
export function releasePollLock(inbox: Inbox): void {
  const { pid } = process;
  const path = join(inbox.dir, "poll.lock");
  try {
    if (readFileSync(path, "utf8").trim() === String(pid)) rmSync(path, { force: true });
  } catch {
    // Gone already.
  }
}

// True while poll.lock names this process. Two processes that found the same stale lock may both
// believe they took it; the one whose name is not in the file has lost it.
export function holdsPollLock(inbox: Inbox): boolean {
  try {
    return readFileSync(join(inbox.dir, "poll.lock"), "utf8").trim() === String(process.pid);
  } catch {
    return false;
  }
}

function isStale(path: string, now: number): boolean {
  try {
    if (now - statSync(path).mtimeMs > LOCK_STALE_MS) return true;
    const pid = Number(readFileSync(path, "utf8").trim());
    return !Number.isInteger(pid) || pid <= 0 || !processAlive(pid);
  } catch {
    return true;
  }
}

// The offset the last poller stopped at (every update below it is confirmed).
export function readOffset(inbox: Inbox): number | undefined {
  try {
    const value = Number(readFileSync(join(inbox.dir, "offset"), "utf8").trim());
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

export function writeOffset(inbox: Inbox, offset: number): void {
  writeAtomic(join(inbox.dir, "offset"), String(offset));
}

// Hands a press to the approve waiting for `request` (appended: a double press keeps both).
export function deliverPress(inbox: Inbox, request: string, press: Press): void {
  const path = join(inbox.dir, "inbox", `${request}.json`);
  const presses = [...readPresses(path), press];
  writeAtomic(path, JSON.stringify(presses));
}

// The presses routed to `request`, taken out of the inbox.
export function takePresses(inbox: Inbox, request: string): Press[] {
  const path = join(inbox.dir, "inbox", `${request}.json`);
  const taken = `${path}.${process.pid}.taken`;
  try {
    renameSync(path, taken);
  } catch {
    return [];
  }
  const presses = readPresses(taken);
  rmSync(taken, { force: true });
  return presses;
}

function readPresses(path: string): Press[] {
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return Array.isArray(value) ? (value as Press[]) : [];
  } catch {
    return [];
  }
}

/** Whose request a message of the bot asks, and until when (Unix seconds). */
export interface AskedIn {
  request: string;
  expiresAt: number;
}

// Notes that message `messageId` asks `request`, so a reply to it finds its way there.
export function noteMessage(inbox: Inbox, messageId: number, asked: AskedIn): void {
  writeAtomic(join(inbox.dir, "messages", String(messageId)), JSON.stringify(asked));
}

// The request message `messageId` asks, if it is one of ours.
export function askedIn(inbox: Inbox, messageId: number): AskedIn | undefined {
  try {
    const value = JSON.parse(
      readFileSync(join(inbox.dir, "messages", String(messageId)), "utf8"),
    ) as Partial<AskedIn> | null;
    if (typeof value?.request !== "string" || typeof value.expiresAt !== "number") return undefined;
    return { request: value.request, expiresAt: value.expiresAt };
  } catch {
    return undefined;
  }
}

// Marks the request answered. False when it was already: this press is a replay.
export function markUsed(inbox: Inbox, request: string): boolean {
  try {
    closeSync(openSync(join(inbox.dir, "used", request), "wx", 0o600));
    return true;
  } catch {
    return false;
  }
}

export function isUsed(inbox: Inbox, request: string): boolean {
  try {
    statSync(join(inbox.dir, "used", request));
    return true;
  } catch {
    return false;
  }
}

// Removes inbox files and used marks older than a day (Telegram keeps updates 24 hours).
export function sweep(inbox: Inbox, now: number): void {
  for (const sub of SUBS) {
    const dir = join(inbox.dir, sub);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const path = join(dir, name);
      try {
        if (now - statSync(path).mtimeMs > KEEP_MS) rmSync(path, { force: true });
      } catch {
        // Taken meanwhile.
      }
    }
  }
}

function writeAtomic(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, path);
}

/** A process's seat at the shared bot (a waiting approve, the reply listener): it long-polls while
 *  it holds poll.lock, taking the saved offset and sweeping stale files as it takes the lock, and
 *  otherwise reads its inbox file while the holder routes what it reads. */
export class PollSeat {
  holding = false;
  offset: number | undefined;

  private readonly inbox: Inbox;
  private readonly now: () => number;

  constructor(inbox: Inbox, now: () => number) {
    this.inbox = inbox;
    this.now = now;
  }

  /** Whether this process polls now (else the caller reads its inbox and pauses). */
  take(): boolean {
    if (!this.holding) {
      this.holding = takePollLock(this.inbox, this.now());
      if (this.holding) {
        this.offset = readOffset(this.inbox);
        sweep(this.inbox, this.now());
      }
    }
    return this.holding;
  }

  /** A getUpdates that failed: a 409 from a poller of ours that took the lock at the same moment
   *  lets that one poll (this one reads its inbox); any other error stands. */
  giveWay(error: unknown): void {
    if (toHookNotifyError(error).status !== 409 || holdsPollLock(this.inbox)) throw error;
    this.holding = false;
  }

  /** Past an update (saved by save(), once the whole batch is routed). */
  passed(updateId: number): void {
    this.offset = Math.max(this.offset ?? 0, updateId + 1);
  }

  save(): void {
    if (this.offset !== undefined) writeOffset(this.inbox, this.offset);
  }

  leave(): void {
    if (this.holding) releasePollLock(this.inbox);
  }
}
