// The sessions resource of the service (research/service-api.md, "Sessions"): list pages with the
// computerId filter, create, update, and a session's messages (list by role, send). The
// documented limits are checked before anything is sent, so a mistake costs no request.
import { HookNotifyError } from "../errors.js";
import { callService, type ServiceContext } from "./http.js";
import { idSegment } from "./service-ids.js";
import { paginate, type Page } from "./paginate.js";
import {
  messagePageSchema,
  sentMessageSchema,
  sessionPageSchema,
  sessionSchema,
  type Message,
  type Session,
} from "./schemas.js";

/** The largest page the document allows (limit 1-100). */
export const PAGE_SIZE = 100;
/** The roles the messages list can filter by (`role`). */
export const MESSAGE_ROLES = ["user", "assistant", "tool"] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/** The settings a person may send on create and update (tokenUsage is the service's own). */
export interface SessionSettingsInput {
  model?: string | undefined;
  specModeModel?: string | undefined;
  runInWorktree?: boolean | undefined;
  tags?: { name: string; metadata?: Record<string, unknown> }[] | undefined;
  [key: string]: unknown;
}

/** A user message: text, and optionally images, files and the computer to route it to. */
export interface SendInput {
  text: string;
  images?: { data: string }[] | undefined;
  files?: { data: string; parsedData?: string; name?: string; path?: string }[] | undefined;
  computerId?: string | undefined;
}

const sessionPath = (id: string): string => `/api/v0/sessions/${idSegment(id, "session")}`;

// One page of GET /api/v0/sessions (the order is the service's; the caller picks the cursor).
export async function getSessionPage(
  ctx: ServiceContext,
  query: { cursor?: string | undefined; computerId?: string | undefined; limit?: number },
): Promise<Page<Session>> {
  const limit = checkLimit(query.limit ?? PAGE_SIZE);
  const page = await callService(
    ctx,
    {
      path: "/api/v0/sessions",
      query: { limit, cursor: query.cursor, computerId: query.computerId },
    },
    sessionPageSchema,
  );
  return { items: page.sessions, ...(page.pagination ?? { hasMore: false }) };
}

// POST /api/v0/sessions: a new session on a computer (201).
export async function createSession(
  ctx: ServiceContext,
  body: { computerId: string; cwd?: string | undefined; sessionSettings?: SessionSettingsInput },
): Promise<Session> {
  if (!body.computerId) throw usage("sessions create: --computer is required.");
  if (body.cwd !== undefined && (body.cwd.length < 1 || body.cwd.length > 4096))
    throw usage("sessions create: --cwd must be 1-4096 characters.");
  if (body.sessionSettings) checkSettings(body.sessionSettings);
  return callService(
    ctx,
    { method: "POST", path: "/api/v0/sessions", body: withoutUndefined(body) },
    sessionSchema,
  );
}

// PATCH /api/v0/sessions/{id}: changes the session's settings (model, tags, …).
export async function updateSession(
  ctx: ServiceContext,
  sessionId: string,
  sessionSettings: SessionSettingsInput,
): Promise<Session> {
  checkSettings(sessionSettings);
  const body = { sessionSettings: withoutUndefined(sessionSettings) };
  return callService(ctx, { method: "PATCH", path: sessionPath(sessionId), body }, sessionSchema);
}

// GET /api/v0/sessions/{id}/messages, page by page, optionally one role only.
export function listMessages(
  ctx: ServiceContext,
  sessionId: string,
  query: { role?: MessageRole | undefined; computerId?: string | undefined; limit?: number } = {},
  maxPages?: number,
): AsyncGenerator<Message> {
  const limit = checkLimit(query.limit ?? PAGE_SIZE);
  if (query.role !== undefined && !MESSAGE_ROLES.includes(query.role))
    throw usage(`--role must be one of ${MESSAGE_ROLES.join(", ")}.`);
  return paginate(async (cursor) => {
    const page = await callService(
      ctx,
      {
        path: `${sessionPath(sessionId)}/messages`,
        query: { limit, cursor, role: query.role, computerId: query.computerId },
      },
      messagePageSchema,
    );
    return { items: page.messages, ...(page.pagination ?? { hasMore: false }) };
  }, maxPages);
}

// POST /api/v0/sessions/{id}/messages: a user message; answers its id and the agent's status.
export async function sendMessage(
  ctx: ServiceContext,
  sessionId: string,
  input: SendInput,
): Promise<{ messageId: string; status: string }> {
  if (input.text.trim() === "") throw usage("sessions send: the message text is empty.");
  return callService(
    ctx,
    { method: "POST", path: `${sessionPath(sessionId)}/messages`, body: withoutUndefined(input) },
    sentMessageSchema,
  );
}

// limit is 1-100 on every list of the API.
export function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw usage(`--limit must be a whole number from 1 to 100 (got ${String(limit)}).`);
  return limit;
}

function checkSettings(settings: SessionSettingsInput): void {
  for (const key of ["tokenUsage", "inclusiveTokenUsage"]) {
    if (key in settings) throw usage(`sessionSettings.${key} is set by the service, not sent.`);
  }
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function usage(message: string): HookNotifyError {
  return new HookNotifyError("USAGE", message, { retryable: false });
}
