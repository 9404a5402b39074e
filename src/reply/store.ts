// The reply's files, in the bot's folder that approvals already share (approve/telegram-inbox.ts):
//   reply-tickets/<ticket>.json   one "waiting for you" message that takes a reply (the worker
//                                 writes it after Telegram took the message)
//   reply-confirms/<confirm>.json one reply text waiting for its Send press (the listener writes it)
// Used marks (used/<id>, O_EXCL) are the approvals' own: a ticket and a confirmation are each
// used once. Files are 0600 in 0700 folders, written whole (temp file, rename).
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Inbox } from "../approve/telegram-inbox.js";
import type { ReplySession } from "./cloud.js";
import type { ReplyPane } from "./pane.js";

/** A sent "waiting for you" message a reply may answer. */
export interface ReplyTicket {
  id: string;
  /** The notification it carried (the log joins the reply to its run). */
  notificationId: string;
  sinkName: string;
  chatId: string;
  /** Telegram's message_id of the sent message: a reply names it in reply_to_message. */
  messageId: number;
  /** Epoch ms; no reply counts after it. */
  expiresAt: number;
  /** Where the reply goes: the agent's tmux pane, or a cloud session (exactly one is set). */
  pane?: ReplyPane | undefined;
  session?: ReplySession | undefined;
}

// Where a ticket's reply goes, in words: "tmux pane %3", "cloud session sess-12".
export function targetWords(ticket: ReplyTicket): string {
  if (ticket.session) return `cloud session ${ticket.session.id}`;
  return `tmux pane ${ticket.pane?.pane ?? "?"}`;
}

/** A reply's text, shown on the phone, typed only on its signed Send press. */
export interface ReplyConfirm {
  id: string;
  ticket: string;
  text: string;
  /** Epoch ms: the ticket's. */
  expiresAt: number;
}

type Kind = "reply-tickets" | "reply-confirms";

function folder(inbox: Inbox, kind: Kind): string {
  const dir = join(inbox.dir, kind);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

function save(inbox: Inbox, kind: Kind, id: string, value: object): void {
  const path = join(folder(inbox, kind), `${id}.json`);
  const temp = `${path}.${String(process.pid)}.tmp`;
  writeFileSync(temp, JSON.stringify(value), { mode: 0o600 });
  renameSync(temp, path);
}

// The file's JSON (written by this module), or undefined when the id is odd or there is none.
function load(inbox: Inbox, kind: Kind, id: string): unknown {
  if (!/^[A-Za-z0-9_-]{16}$/.test(id)) return undefined;
  try {
    return JSON.parse(readFileSync(join(folder(inbox, kind), `${id}.json`), "utf8"));
  } catch {
    return undefined;
  }
}

export function saveTicket(inbox: Inbox, ticket: ReplyTicket): void {
  save(inbox, "reply-tickets", ticket.id, ticket);
}

export function saveConfirm(inbox: Inbox, confirm: ReplyConfirm): void {
  save(inbox, "reply-confirms", confirm.id, confirm);
}

export function loadConfirm(inbox: Inbox, id: string): ReplyConfirm | undefined {
  return load(inbox, "reply-confirms", id) as ReplyConfirm | undefined;
}

export function loadTicket(inbox: Inbox, id: string): ReplyTicket | undefined {
  return load(inbox, "reply-tickets", id) as ReplyTicket | undefined;
}

// Every ticket and confirmation on file; expired ones are removed as they are met.
export function liveFiles(inbox: Inbox, now: number) {
  const tickets = readAll<ReplyTicket>(inbox, "reply-tickets", now);
  const confirms = readAll<ReplyConfirm>(inbox, "reply-confirms", now);
  return { tickets, confirms };
}

function readAll<T extends { id: string; expiresAt: number }>(
  inbox: Inbox,
  kind: Kind,
  now: number,
): T[] {
  const dir = folder(inbox, kind);
  const found: T[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".json")) continue;
    const value = load(inbox, kind, name.slice(0, -5)) as T | undefined;
    if (value === undefined) continue;
    if (value.expiresAt <= now) rmSync(join(dir, name), { force: true });
    else found.push(value);
  }
  return found;
}
