// The typed client of the service's API: one function per endpoint hook-notify uses. Loaded only
// by the background worker and the service commands, never on the hook path.
import type * as z from "../zod.js";
import { callService, type ServiceContext } from "./http.js";
import { idSegment } from "./service-ids.js";
import { paginate } from "./paginate.js";
import {
  activityRowSchema,
  analyticsSchema,
  computerListSchema,
  computerSchema,
  historyPageSchema,
  productivityRowSchema,
  sessionPageSchema,
  sessionSchema,
  tokensRowSchema,
  toolsRowSchema,
  userRowSchema,
  type Computer,
  type ControlChange,
  type Session,
} from "./schemas.js";

export type { ServiceContext } from "./http.js";

/** The largest page the document allows (limit 1-100). */
const PAGE_SIZE = 100;

// GET /api/v0/sessions/{id}, optionally asking one computer directly (computerId).
export async function getSession(
  ctx: ServiceContext,
  sessionId: string,
  computerId?: string,
): Promise<Session> {
  const path = `/api/v0/sessions/${idSegment(sessionId, "session")}`;
  return callService(ctx, { path, query: { computerId } }, sessionSchema);
}

// GET /api/v0/sessions, every page.
export function listSessions(ctx: ServiceContext, maxPages?: number): AsyncGenerator<Session> {
  return paginate(async (cursor) => {
    const page = await callService(
      ctx,
      { path: "/api/v0/sessions", query: { limit: PAGE_SIZE, cursor } },
      sessionPageSchema,
    );
    return { items: page.sessions, ...(page.pagination ?? { hasMore: false }) };
  }, maxPages);
}

// GET /api/v0/computers with provisioning steps (one answer, no pagination).
export async function listComputers(ctx: ServiceContext): Promise<Computer[]> {
  const query = { includeProvisioningSteps: "true" };
  const answer = await callService(ctx, { path: "/api/v0/computers", query }, computerListSchema);
  return answer.computers;
}

// POST /api/v0/computers/{id}/install-deps: retries the install-dependencies step (202).
export async function retryInstallDeps(ctx: ServiceContext, computerId: string): Promise<Computer> {
  const path = `/api/v0/computers/${idSegment(computerId, "computer")}/install-deps`;
  return callService(ctx, { method: "POST", path }, computerSchema);
}

// GET /api/v0/organization/enterprise-controls/history, newest revision first, page by page.
export function listControlHistory(
  ctx: ServiceContext,
  pageSize = PAGE_SIZE,
): AsyncGenerator<ControlChange> {
  return paginate(async (cursor) => {
    const page = await callService(
      ctx,
      {
        path: "/api/v0/organization/enterprise-controls/history",
        query: { limit: pageSize, cursor },
      },
      historyPageSchema,
    );
    return { items: page.changes, ...page.pagination };
  });
}

const ANALYTICS_ROWS = {
  tokens: tokensRowSchema,
  tools: toolsRowSchema,
  activity: activityRowSchema,
  productivity: productivityRowSchema,
} as const;

export type AnalyticsKind = keyof typeof ANALYTICS_ROWS;
export type AnalyticsRow<K extends AnalyticsKind> = z.infer<(typeof ANALYTICS_ROWS)[K]>;

/** What every analytics answer says about itself (org_id, the range; has_more on /users). */
export type AnalyticsMeta = Record<string, unknown> & { org_id?: string | undefined };

// GET /api/v1/analytics/{kind} for a UTC date range (YYYY-MM-DD, both inclusive, before today).
export async function getAnalytics<K extends AnalyticsKind>(
  ctx: ServiceContext,
  kind: K,
  range: { startDate: string; endDate: string },
): Promise<AnalyticsRow<K>[]> {
  return (await getAnalyticsAnswer(ctx, kind, range)).data;
}

// The same with the answer's meta.
export async function getAnalyticsAnswer<K extends AnalyticsKind>(
  ctx: ServiceContext,
  kind: K,
  range: { startDate: string; endDate: string },
): Promise<{ data: AnalyticsRow<K>[]; meta: AnalyticsMeta }> {
  const schema = analyticsSchema(ANALYTICS_ROWS[kind]);
  const answer = await callService(
    ctx,
    { path: `/api/v1/analytics/${kind}`, query: range },
    schema,
  );
  return { data: answer.data as AnalyticsRow<K>[], meta: answer.meta ?? {} };
}

// GET /api/v1/analytics/users, every page (cursor = a user id from meta.next_cursor).
export function listUserMetrics(
  ctx: ServiceContext,
  range: { startDate: string; endDate: string },
  onMeta?: (meta: AnalyticsMeta) => void,
): AsyncGenerator<z.infer<typeof userRowSchema>> {
  const schema = analyticsSchema(userRowSchema);
  return paginate(async (cursor) => {
    const query = { ...range, limit: PAGE_SIZE, cursor };
    const answer = await callService(ctx, { path: "/api/v1/analytics/users", query }, schema);
    onMeta?.(answer.meta ?? {});
    return {
      items: answer.data,
      hasMore: answer.meta?.has_more ?? false,
      nextCursor: answer.meta?.next_cursor,
    };
  });
}
