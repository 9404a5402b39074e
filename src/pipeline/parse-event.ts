import * as z from "../zod.js";
import { once } from "../once.js";
import { HookNotifyError } from "../errors.js";
import { adapterFor } from "../clients/index.js";
import { clientOfPayload } from "../clients/detect.js";
import {
  KNOWN_EVENTS,
  OWN_EVENTS,
  type Client,
  type EventName,
  type HookEvent,
  type IgnoredEvent,
} from "../core/hook-event.js";
import { MAX_EVENT_DEPTH } from "../core/defaults.js";
import { setOwn } from "../own.js";

// The fields hook-notify reads, in their canonical camelCase spelling, as zod states them: the
// source of truth that the hand check below must agree with (test/pipeline/event-fields.test.ts
// holds them equal on every fixture and on fuzzed values), and of the message naming a field
// that fails. Built only then: a well-formed event never loads zod.
export const eventSchema = once(() => {
  const text = z.optional(z.string());
  const count = z.optional(z.number().check(z.nonnegative()));
  return z.object({
    hookEventName: z.string().check(z.minLength(1, "hook_event_name must not be empty")),
    sessionId: text,
    transcriptPath: text,
    cwd: text,
    permissionMode: text,
    message: text,
    title: text,
    notificationType: text,
    reason: text,
    lastAssistantMessage: text,
    agentId: text,
    agentType: text,
    agentTranscriptPath: text,
    toolName: text,
    sessionDurationMs: count,
    messageCount: count,
    stopHookActive: z.optional(z.boolean()),
  });
});

type Canonical = Record<keyof z.infer<ReturnType<typeof eventSchema>>, unknown>;
type FieldKind = "name" | "text" | "count" | "flag";

// The schema's checks by hand, one kind per field (the type makes it list exactly its fields).
const FIELD_KINDS: Record<keyof Canonical, FieldKind> = {
  hookEventName: "name",
  sessionId: "text",
  transcriptPath: "text",
  cwd: "text",
  permissionMode: "text",
  message: "text",
  title: "text",
  notificationType: "text",
  reason: "text",
  lastAssistantMessage: "text",
  agentId: "text",
  agentType: "text",
  agentTranscriptPath: "text",
  toolName: "text",
  sessionDurationMs: "count",
  messageCount: "count",
  stopHookActive: "flag",
};
const FIELDS = Object.keys(FIELD_KINDS) as (keyof Canonical)[];

// True when eventSchema accepts `value` (present, not null) for `field`.
export function isValidField(field: keyof Canonical, value: unknown): boolean {
  switch (FIELD_KINDS[field]) {
    case "name":
      return typeof value === "string" && value !== "";
    case "text":
      return typeof value === "string";
    case "count":
      return typeof value === "number" && Number.isFinite(value) && value >= 0;
    case "flag":
      return typeof value === "boolean";
  }
}

// zod's words for why a field failed (the hand check found it does).
function fieldIssue(field: keyof Canonical, value: unknown): string {
  const result = z.safeParse(eventSchema().shape[field], value);
  return result.error?.issues[0]?.message ?? "invalid";
}

// Turns raw hook JSON into a HookEvent; snake_case and camelCase both accepted, unknown keys kept.
// The client's adapter first maps its own event names and fields onto hook-notify's. Lenient:
// a field of the wrong type is dropped (and named in `dropped`), the event still notifies.
export function parseEvent(
  input: string,
  clientHint?: Client,
  eventHint?: string,
): HookEvent | IgnoredEvent {
  if (input.trim() === "") {
    throw new HookNotifyError(
      "INPUT_EMPTY",
      "stdin: empty input. Pipe one hook event JSON object in.",
    );
  }
  const dropped: string[] = [];
  const parsed = parseJsonObject(input);
  const received = pruneDeep(parsed, MAX_EVENT_DEPTH, "", dropped) as Record<string, unknown>;
  const client = clientHint ?? clientOfPayload(received);
  // A client that sends no event name has its entries pass it with --event.
  const named =
    eventHint !== undefined && received["hook_event_name"] === undefined
      ? { ...received, hook_event_name: eventHint }
      : received;
  // hook-notify's own events (the notify tool's AgentNotify) are already in its own words.
  const own = (OWN_EVENTS as readonly unknown[]).includes(named["hook_event_name"]);
  const raw = client === undefined || own ? named : adapterFor(client).toCanonical(named);
  const canonical = pickFields(raw);
  const name = canonical.hookEventName;
  if (name === undefined) {
    throw new HookNotifyError(
      "INPUT_INVALID",
      "hook event: hook_event_name is missing. Is hook-notify configured as a hook command?",
    );
  }
  if (typeof name !== "string" || name === "") {
    throw new HookNotifyError(
      "INPUT_INVALID",
      "hook event: hook_event_name: must be a non-empty string",
    );
  }
  if (!isKnown(name)) return { ignored: name };
  const fields: Partial<Record<keyof Canonical, unknown>> = {};
  for (const field of FIELDS) {
    const value = canonical[field];
    if (field === "hookEventName" || value === undefined) continue;
    if (isValidField(field, value)) fields[field] = value;
    else dropped.push(`${toSnake(field)}: ${fieldIssue(field, value)}; dropped`);
  }
  const event: HookEvent = {
    ...(fields as Omit<HookEvent, "name" | "raw">),
    ...failureFields(raw),
    ...(dropped.length > 0 ? { dropped } : {}),
    name,
    raw: received,
  };
  if (client !== undefined) event.client = client;
  return event;
}

// A copy of `value` cut at `depth` levels (the cut parts named in `dropped`). Recursion stops at
// `depth`, so 5,000 levels of nesting in a field nobody reads cannot overflow the stack later.
function pruneDeep(value: unknown, depth: number, path: string, dropped: string[]): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth === 0) {
    dropped.push(`${path || "(event)"}: nested deeper than ${MAX_EVENT_DEPTH} levels; cut`);
    return "[cut: nested too deep]";
  }
  if (Array.isArray(value)) {
    return value.map((item, i) => pruneDeep(item, depth - 1, `${path}[${i}]`, dropped));
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    setOwn(out, key, pruneDeep(item, depth - 1, path ? `${path}.${key}` : key, dropped));
  }
  return out;
}

function parseJsonObject(input: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new HookNotifyError("INPUT_INVALID", `stdin: not valid JSON (${detail}).`, {
      cause: error,
    });
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new HookNotifyError("INPUT_INVALID", "stdin: expected one JSON object (the hook event).");
  }
  return value as Record<string, unknown>;
}

function pickFields(raw: Record<string, unknown>): Canonical {
  const out: Partial<Canonical> = {};
  for (const field of FIELDS) {
    const value = raw[toSnake(field)] ?? raw[field];
    if (value !== null && value !== undefined) out[field] = value;
  }
  return out as Canonical;
}

// StopFailure's error fields are a type name and free-form details (string or object), and the
// seconds of an HTTP Retry-After an adapter passed on (OpenCode's 429).
function failureFields(
  raw: Record<string, unknown>,
): Pick<HookEvent, "error" | "errorDetails" | "retryAfterSeconds"> {
  const out: Pick<HookEvent, "error" | "errorDetails" | "retryAfterSeconds"> = {};
  const error = raw.error;
  const details = raw.error_details ?? raw.errorDetails;
  const retry = raw.retry_after;
  const seconds =
    typeof retry === "number" ? retry : typeof retry === "string" ? Number(retry.trim()) : NaN;
  if (retry !== "" && Number.isFinite(seconds) && seconds > 0) out.retryAfterSeconds = seconds;
  if (typeof error === "string" && error) out.error = error;
  if (typeof details === "string" && details) out.errorDetails = details;
  else if (details && typeof details === "object") out.errorDetails = JSON.stringify(details);
  return out;
}

function isKnown(name: string): name is EventName {
  return (KNOWN_EVENTS as readonly string[]).includes(name);
}

function toSnake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
