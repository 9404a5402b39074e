// Types of the fake's analytics generator (analytics.mjs) for the TypeScript tests.

export const EARLIEST_DATA: string;

export interface FakeDay {
  tokens: {
    billable_tokens: number;
    by_model: { model_id: string; billable_tokens: number }[];
    by_user: { user_id: string; user_email: string; billable_tokens: number }[];
  } & Record<string, unknown>;
  tools: { tool_calls: number } & Record<string, unknown>;
  activity: { daily_active_users: number; sessions: number } & Record<string, unknown>;
  productivity: { git_commits: number; git_prs_created: number } & Record<string, unknown>;
  users: ({ user_id: string } & Record<string, unknown>)[];
}

export function analyticsDay(date: string): FakeDay;
