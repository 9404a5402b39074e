// Hook events that wait in outbox/events/ for a worker to run them (inbox.ts): what `log`, `doctor`
// and `flush` say about them. Read only: the names, and each entry's time, client and event.
import { join } from "node:path";
import type { OutboxPaths } from "../outbox/paths.js";
import { readBoundedSync } from "../read-bounded.js";
import { MAX_EVENT_BYTES } from "../core/defaults.js";
import { listEvents } from "./inbox.js";

/** One waiting event, as far as its entry can be read. */
export interface WaitingEvent {
  name: string;
  /** When its hook started (ms since the epoch); the name's time when the entry is unreadable. */
  receivedAt: number;
  client?: string | undefined;
  event?: string | undefined;
  cwd?: string | undefined;
}

// Oldest first, as a worker takes them.
export function waitingEvents(paths: OutboxPaths): WaitingEvent[] {
  return listEvents(paths).map((name) => readWaiting(join(paths.events, name), name));
}

function readWaiting(file: string, name: string): WaitingEvent {
  // The name starts with the hook's start time in base 36 (inbox.ts, writeEvent).
  const fromName = parseInt(name.split("-")[0] ?? "", 36);
  const waiting: WaitingEvent = { name, receivedAt: Number.isFinite(fromName) ? fromName : 0 };
  try {
    const entry = JSON.parse(
      readBoundedSync(file, { maxBytes: 2 * MAX_EVENT_BYTES, noFollow: true }),
    ) as {
      receivedAt?: unknown;
      args?: { client?: unknown; event?: unknown };
      payload?: unknown;
      cwd?: unknown;
    };
    if (typeof entry.receivedAt === "number") waiting.receivedAt = entry.receivedAt;
    if (typeof entry.args?.client === "string") waiting.client = entry.args.client;
    if (typeof entry.cwd === "string") waiting.cwd = entry.cwd;
    const payload =
      typeof entry.payload === "string" ? (JSON.parse(entry.payload) as unknown) : undefined;
    const named = (payload as { hook_event_name?: unknown } | null | undefined)?.hook_event_name;
    waiting.event =
      typeof named === "string"
        ? named
        : typeof entry.args?.event === "string"
          ? entry.args.event
          : undefined;
  } catch {
    // Taken meanwhile, or not an entry: the worker quarantines what does not parse.
  }
  return waiting;
}
