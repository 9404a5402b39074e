// The service's resources as documented (research/service-api.md), as zod schemas. Lenient on
// purpose: every object keeps keys the document does not list, statuses are plain strings (a new
// value must not break a poll), and what the document leaves "not shown" is optional.
import * as z from "../zod.js";

const num = z.number();
const str = z.string();
// A field the document shows as null when it has no value (and may leave out).
const maybe = <T extends z.ZodMiniType>(type: T) => z.optional(z.nullable(type));
// The token counts a model row and a day row both carry (analytics).
const tokenCounts = {
  billable_tokens: z.optional(num),
  input_tokens: z.optional(num),
  output_tokens: z.optional(num),
};

/** Token counts of a session (sessionSettings.tokenUsage); response only. */
export const tokenUsageSchema = z.looseObject({
  inputTokens: z.optional(num),
  outputTokens: z.optional(num),
  cacheCreationTokens: z.optional(num),
  cacheReadTokens: z.optional(num),
  thinkingTokens: z.optional(num),
  serviceCredits: z.optional(num),
});

export const sessionSchema = z.looseObject({
  sessionId: str,
  // Required on get, create and update; its presence in list items is not shown.
  status: z.optional(str),
  messageCount: z.optional(num),
  createdAt: z.optional(num),
  updatedAt: z.optional(num),
  title: maybe(str),
  completedAt: maybe(num),
  computerId: maybe(str),
  sessionSettings: z.optional(
    z.looseObject({
      model: z.optional(str),
      archivedAt: maybe(str),
      tags: z.optional(z.array(z.looseObject({ name: z.optional(str) }))),
      tokenUsage: z.optional(tokenUsageSchema),
      inclusiveTokenUsage: z.optional(tokenUsageSchema),
    }),
  ),
});
export type Session = z.infer<typeof sessionSchema>;

export const provisioningStepSchema = z.looseObject({
  id: z.optional(str),
  name: z.optional(str),
  status: z.optional(str),
  error: maybe(str),
  startedAt: maybe(num),
  completedAt: maybe(num),
  installSessionId: maybe(str),
});

export const computerSchema = z.looseObject({
  id: str,
  name: z.optional(str),
  providerType: z.optional(str),
  createdAt: z.optional(num),
  hostId: maybe(str),
  hostname: maybe(str),
  status: maybe(str),
  remoteUser: maybe(str),
  provisioningSteps: z.optional(z.nullable(z.array(provisioningStepSchema))),
});
export type Computer = z.infer<typeof computerSchema>;

export const controlChangeSchema = z.looseObject({
  revision: num,
  // Parsed generically: keys come and go between API versions.
  settings: z.optional(z.record(str, z.unknown())),
  user: z.optional(
    z.looseObject({ id: z.optional(str), email: z.optional(str), name: z.optional(str) }),
  ),
  updatedAt: z.optional(str),
});
export type ControlChange = z.infer<typeof controlChangeSchema>;

const pagination = z.looseObject({ hasMore: z.boolean(), nextCursor: maybe(str) });

export const sessionPageSchema = z.looseObject({
  sessions: z.array(sessionSchema),
  pagination: z.optional(pagination),
});
export const historyPageSchema = z.looseObject({
  changes: z.array(controlChangeSchema),
  pagination,
});
export const computerListSchema = z.looseObject({ computers: z.array(computerSchema) });

/** A message of a session; which fields are required is not shown, so only `id` is. */
export const messageSchema = z.looseObject({
  id: str,
  role: z.optional(str),
  content: z.optional(z.array(z.looseObject({ text: z.optional(str), id: z.optional(str) }))),
  createdAt: z.optional(num),
  updatedAt: z.optional(num),
  parentId: z.optional(z.nullable(str)),
  isUserVisible: z.optional(z.boolean()),
  isError: z.optional(z.boolean()),
});
export type Message = z.infer<typeof messageSchema>;

export const messagePageSchema = z.looseObject({
  messages: z.array(messageSchema),
  pagination: z.optional(pagination),
});
/** POST /sessions/{id}/messages: the created user message and the agent's status after it. */
export const sentMessageSchema = z.looseObject({ messageId: str, status: str });

/** An analytics row with group_by: one per day per group value. */
export const groupRowSchema = z.looseObject({ date: str, group_key: str });

/** The error body of the analytics endpoints (and, we assume, of v0: not shown there). */
export const errorBodySchema = z.looseObject({
  title: z.optional(str),
  detail: z.optional(str),
  status: z.optional(num),
  requestId: z.optional(str),
});

const meta = z.looseObject({
  org_id: z.optional(str),
  start_date: z.optional(str),
  end_date: z.optional(str),
  has_more: z.optional(z.boolean()),
  next_cursor: maybe(str),
});

// One analytics response: {data, meta}; rows are checked by the caller's row schema.
export function analyticsSchema<Row extends z.ZodMiniType>(row: Row) {
  return z.looseObject({ data: z.array(row), meta: z.optional(meta) });
}

const modelRow = z.looseObject({
  model_id: str,
  model_tier: z.optional(str),
  ...tokenCounts,
});

export const tokensRowSchema = z.looseObject({
  date: str,
  ...tokenCounts,
  by_model: z.optional(z.array(modelRow)),
  by_user: z.optional(
    z.array(
      z.looseObject({
        user_id: z.optional(str),
        user_email: maybe(str),
        billable_tokens: z.optional(num),
      }),
    ),
  ),
});
export const toolsRowSchema = z.looseObject({ date: str, tool_calls: z.optional(num) });
export const activityRowSchema = z.looseObject({
  date: str,
  daily_active_users: z.optional(num),
  sessions: z.optional(num),
  messages: z.optional(num),
});
export const productivityRowSchema = z.looseObject({
  date: str,
  git_commits: z.optional(num),
  git_prs_created: z.optional(num),
  files_created: z.optional(num),
  files_edited: z.optional(num),
});
export const userRowSchema = z.looseObject({
  user_id: str,
  user_email: maybe(str),
  date: z.optional(str),
  billable_tokens: z.optional(num),
});
