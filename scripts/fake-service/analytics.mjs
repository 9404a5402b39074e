// The fake's analytics: deterministic numbers per UTC day, the documented validation (dates,
// today rejected, earliest data, limit, group_by) and /users cursor pagination.

export const EARLIEST_DATA = "2026-01-14";
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const GROUPS = { tokens: "model", tools: "tool_name", activity: "client" };
const MODELS = ["model-alpha", "model-beta", "model-gamma"];
const USERS = ["u-ada", "u-bob", "u-cyd", "u-dee", "u-eve"];

// A small number from a string, so each day has its own, stable figures.
function seed(text, salt, max) {
  let hash = 2166136261;
  for (const ch of `${salt}:${text}`) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619) >>> 0;
  return hash % max;
}

// Every figure of one day, as the five endpoints report them (no group_by).
export function analyticsDay(date) {
  const byModel = MODELS.map((model_id, i) => ({
    model_id,
    model_tier: i === 1 ? "thinking" : "standard",
    billable_tokens: 10_000 * (i + 1) + seed(date, model_id, 50_000),
    input_tokens: 20_000 + seed(date, `${model_id}-in`, 90_000),
    output_tokens: 3_000 + seed(date, `${model_id}-out`, 9_000),
  }));
  const sum = (key) => byModel.reduce((total, row) => total + row[key], 0);
  const users = USERS.slice(0, 3 + seed(date, "users", 3));
  return {
    tokens: {
      date,
      billable_tokens: sum("billable_tokens"),
      input_tokens: sum("input_tokens"),
      output_tokens: sum("output_tokens"),
      cache_read_tokens: seed(date, "cr", 40_000),
      cache_write_tokens: seed(date, "cw", 10_000),
      by_model: byModel,
      // The same users and credits as /users reports for the day.
      by_user: users.map((user_id) => ({
        user_id,
        user_email: `${user_id.slice(2)}@example.com`,
        billable_tokens: seed(date, `${user_id}-bt`, 60_000),
        by_model: [],
      })),
    },
    tools: {
      date,
      tool_calls: 100 + seed(date, "tools", 900),
      by_tool: [{ tool: "Read", invocations: 40 }],
      mcp_users_with_mcp: 1,
      mcp_by_server: [],
      skills_invocations: 0,
      skills_by_name: [],
      slash_commands_invocations: 0,
      slash_commands_by_name: [],
      hooks_invocations: 3,
      hooks_by_event: [{ event: "Stop", matcher: "", command: "hook-notify", count: 3 }],
      web_users: 1,
      autonomy_ratio_avg: 4.2,
      autonomy_ratio_p50: 4,
      autonomy_ratio_p90: 9,
      tool_calls_per_session_avg: 12,
      user_turns_per_session_avg: 3,
      tool_autonomy_level_ratio: { auto_high: 0.5, auto_medium: 0.3, auto_low: 0.1, manual: 0.1 },
    },
    activity: {
      date,
      daily_active_users: users.length,
      weekly_active_users: USERS.length,
      monthly_active_users: USERS.length,
      daily_active_users_by_client: { "terminal-ui": users.length, web: 1 },
      sessions: 5 + seed(date, "sessions", 40),
      messages: 200 + seed(date, "messages", 800),
      user_messages: 50 + seed(date, "user_messages", 100),
    },
    productivity: {
      date,
      files_created: seed(date, "fc", 30),
      files_edited: seed(date, "fe", 120),
      by_extension: [{ extension: "ts", count: 12 }],
      by_language: [{ language: "TypeScript", count: 12 }],
      git_commits: seed(date, "commits", 25),
      git_prs_created: seed(date, "prs", 6),
    },
    users: users.map((user_id) => ({
      user_id,
      user_email: `${user_id.slice(2)}@example.com`,
      date,
      tool_calls: seed(date, `${user_id}-tc`, 300),
      billable_tokens: seed(date, `${user_id}-bt`, 60_000),
      primary_model: MODELS[seed(date, user_id, MODELS.length)],
      primary_model_tier: "standard",
      sessions: 1 + seed(date, `${user_id}-s`, 9),
      messages: 20,
      user_messages: 5,
      assistant_messages: 15,
      autonomy_ratio: 3.5,
      delegation_level: "auto-medium",
      languages: ["TypeScript"],
    })),
  };
}

function daysBetween(start, end) {
  const days = [];
  for (let t = Date.parse(`${start}T00:00:00Z`); t <= Date.parse(`${end}T00:00:00Z`); t += 864e5) {
    const day = new Date(t).toISOString().slice(0, 10);
    if (day >= EARLIEST_DATA) days.push(day);
  }
  return days;
}

function isDate(text) {
  return typeof text === "string" && DATE.test(text) && !Number.isNaN(Date.parse(text));
}

// Answers one analytics request: {status, body}. `today` is the fake's UTC date.
export function answerAnalytics(kind, query, today) {
  const { startDate, endDate } = query;
  if (!isDate(startDate) || !isDate(endDate)) return bad("Invalid date format: use YYYY-MM-DD.");
  if (endDate >= today || startDate >= today)
    return bad("Data for today is not available yet: data lags by 24 hours.");
  if (startDate > endDate) return bad("startDate is after endDate.");
  const groupBy = query.group_by;
  if (groupBy !== undefined && GROUPS[kind] !== groupBy) return bad(`Invalid group_by: ${groupBy}`);
  const meta = { org_id: "org-fake", start_date: startDate, end_date: endDate };
  const days = daysBetween(startDate, endDate).map(analyticsDay);
  if (kind === "users") return pageOfUsers(days, query, meta);
  if (!groupBy) return { status: 200, body: { data: days.map((day) => day[kind]), meta } };
  return { status: 200, body: { data: days.flatMap((day) => grouped(kind, day)), meta } };
}

function grouped(kind, day) {
  if (kind === "tokens") {
    return day.tokens.by_model.map((m) => ({
      date: day.tokens.date,
      group_key: m.model_id,
      billable_tokens: m.billable_tokens,
      input_tokens: m.input_tokens,
      output_tokens: m.output_tokens,
    }));
  }
  if (kind === "tools") {
    return day.tools.by_tool.map((t) => ({
      date: day.tools.date,
      group_key: t.tool,
      tool_calls: t.invocations,
    }));
  }
  return Object.entries(day.activity.daily_active_users_by_client).map(([client, users]) => ({
    date: day.activity.date,
    group_key: client,
    daily_active_users: users,
  }));
}

// Rows ordered by user id, then date; the cursor is the user id of the last row served.
function pageOfUsers(days, query, meta) {
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return bad("limit must be 1-100.");
  const rows = days
    .flatMap((day) => day.users)
    .sort((a, b) => a.user_id.localeCompare(b.user_id) || a.date.localeCompare(b.date));
  const from = query.cursor === undefined ? 0 : rows.findIndex((r) => r.user_id > query.cursor);
  const start = from < 0 ? rows.length : from;
  // A page never splits one user's days: the cursor is a user id.
  let end = Math.min(start + limit, rows.length);
  while (end < rows.length && end > start + 1 && rows[end].user_id === rows[end - 1].user_id) end--;
  const data = rows.slice(start, end);
  const hasMore = end < rows.length;
  return {
    status: 200,
    body: {
      data,
      meta: {
        ...meta,
        has_more: hasMore,
        ...(hasMore ? { next_cursor: data.at(-1).user_id } : {}),
      },
    },
  };
}

function bad(detail) {
  return { status: 400, body: { title: "Bad Request", detail } };
}
