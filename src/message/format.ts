import { adapterFor } from "../clients/index.js";
import { isFailure, type HookEvent } from "../core/hook-event.js";
import type { EventContext } from "../core/event-context.js";
import type { Level, Notification, TokenUsage } from "../core/notification.js";
import { notificationLevel } from "./notification-types.js";
import { describeReset, isRateLimitStop, resetTimeOf } from "./usage-limit.js";
import { deniedAction } from "./denied-action.js";
import { fillTemplate, type TemplateValues } from "./template.js";
import { formatDuration, oneLine, stripControl, truncate } from "./text.js";
import type { Template, Templates } from "../core/config.js";
import { LAST_MESSAGE_MAX } from "../core/defaults.js";

export interface FormatOptions {
  templates?: Templates | undefined;
  /** The body is cut to this many characters (the last message is kept longer for chat). */
  maxBodyLength: number;
  id: string;
  now: number;
}

// Renders a HookEvent and its context into the title and body a person reads at a glance.
export function formatNotification(
  event: HookEvent,
  context: EventContext,
  options: FormatOptions,
): Notification {
  const level = levelOf(event);
  const failure = level === "failure";
  const resetsAt = level === "limit" ? resetTimeOf(event, options.now) : undefined;
  const values = templateValues(event, context);
  values.resets = resetsAt === undefined ? undefined : describeReset(resetsAt, options.now);
  // "… is waiting for your input" is for what needs you; a notice without words names its type.
  if (level !== "attention" && event.name === "Notification" && !oneLine(event.message ?? ""))
    values.message = `${values.agent ?? ""}: ${oneLine(stripControl(event.notificationType ?? ""))}`;
  const fallback = defaultTemplate(event, level, values);
  const custom = levelTemplate(level, options.templates) ?? options.templates?.[event.name];
  const title = oneLine(stripControl(fillTemplate(custom?.title ?? fallback.title, values)));
  const rendered = stripControl(fillTemplate(custom?.body ?? fallback.body, values))
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line, i, all) => line !== "" || (i > 0 && all[i - 1] !== ""))
    .join("\n")
    .trim();
  // Nothing to say (no title, no last message, no facts): say which session, so a chat message or
  // an e-mail is never blank. A template that renders empty on purpose stays empty.
  const body = rendered || (custom?.body === undefined ? whichSession(event) : "");
  return dropUndefined({
    id: options.id,
    event: event.name,
    failure,
    level,
    title: truncate(title, 200),
    body: truncate(body, options.maxBodyLength),
    // Shown in chat footers, e-mail subjects and coalesced titles: inert like the title.
    project: oneLine(stripControl(context.project)),
    client: context.client,
    cwd: event.cwd,
    sessionId: event.sessionId,
    sessionTitle: values.session_title,
    tokenUsage: context.tokenUsage,
    // The default "… is waiting for your input" is for Notification events only.
    message: event.name === "Notification" || event.message ? values.message : undefined,
    lastMessage:
      truncate(stripControl(context.lastMessage ?? "").trim(), LAST_MESSAGE_MAX) || undefined,
    reason: shownOrUndefined(event.reason),
    agentType: shownOrUndefined(event.agentType),
    durationMs: event.sessionDurationMs,
    messageCount: event.messageCount,
    resetsAt: resetsAt === undefined ? undefined : new Date(resetsAt).toISOString(),
    timestamp: new Date(options.now).toISOString(),
    raw: event.raw,
  });
}

// How the event rings: a Notification by its type (notification-types.ts), a rate-limit stop
// as a usage limit, the other failures as failures, a permission request or denial as needing
// you, the rest (a turn or session that ended) as done.
export function levelOf(event: HookEvent): Level {
  if (isRateLimitStop(event)) return "limit";
  if (isFailure(event)) return "failure";
  // The agent's own notify tool says which it is (hook-notify mcp): needs-you or a notice.
  if (event.name === "AgentNotify")
    return event.raw["level"] === "needs-you" ? "attention" : "info";
  if (event.name === "Notification") return notificationLevel(event.notificationType).level;
  return event.name === "PermissionRequest" || event.name === "PermissionDenied"
    ? "attention"
    : "done";
}

// The config's template for the level ("failure", "limit", "info"): it wins over the event's.
function levelTemplate(level: Level, templates: Templates | undefined): Template | undefined {
  return level === "failure" || level === "limit" || level === "info"
    ? templates?.[level]
    : undefined;
}

function templateValues(event: HookEvent, context: EventContext): TemplateValues {
  const agent = context.client ? adapterFor(context.client).agent : "Agent";
  const usage = describeUsage(context.tokenUsage);
  const lastMessage = oneLine(stripControl(context.lastMessage ?? "")) || undefined;
  const facts = [
    event.messageCount === undefined
      ? undefined
      : `${event.messageCount} message${event.messageCount === 1 ? "" : "s"}`,
    event.sessionDurationMs === undefined ? undefined : formatDuration(event.sessionDurationMs),
  ].filter(Boolean);
  return {
    project: context.project,
    agent,
    event: event.name,
    message: oneLine(stripControl(event.message ?? "")) || `${agent} is waiting for your input`,
    title: oneLine(stripControl(event.title ?? "")) || undefined,
    reason: event.reason ?? event.error ?? "",
    session_title: oneLine(stripControl(context.sessionTitle ?? "")) || undefined,
    session_id: event.sessionId,
    last_message: lastMessage,
    agent_type: event.agentType,
    error: [event.error, event.errorDetails].filter(Boolean).join(": "),
    tool: event.toolName,
    denied: deniedAction(event),
    duration:
      event.sessionDurationMs === undefined ? undefined : formatDuration(event.sessionDurationMs),
    message_count: event.messageCount === undefined ? undefined : String(event.messageCount),
    cwd: event.cwd,
    facts: facts.join(" · "),
    token_usage: usage,
    session_line: [
      context.sessionTitle ? `Session: ${oneLine(stripControl(context.sessionTitle))}` : "",
      usage ? `Tokens: ${usage}` : "",
    ]
      .filter(Boolean)
      .join(" · "),
  };
}

// "12.4k in, 3.1k out, 410 credits": what the service counted for the session.
export function describeUsage(usage: TokenUsage | undefined): string | undefined {
  if (!usage) return undefined;
  const parts = [
    usage.inputTokens === undefined ? "" : `${compact(usage.inputTokens)} in`,
    usage.outputTokens === undefined ? "" : `${compact(usage.outputTokens)} out`,
    usage.serviceCredits === undefined ? "" : `${compact(usage.serviceCredits)} credits`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : undefined;
}

// 950 → "950", 12400 → "12.4k", 3_200_000 → "3.2M"
export function compact(value: number): string {
  if (Math.abs(value) >= 1e6) return `${(value / 1e6).toFixed(1).replace(/\.0$/, "")}M`;
  if (Math.abs(value) >= 1e3) return `${(value / 1e3).toFixed(1).replace(/\.0$/, "")}k`;
  return String(Math.round(value));
}

// The built-in wording; every piece can be overridden with config templates.
function defaultTemplate(
  event: HookEvent,
  level: Level,
  values: TemplateValues,
): { title: string; body: string } {
  const failure = level === "failure";
  switch (event.name) {
    case "Notification":
      // A notice, a failure or a usage limit says what it is in its own words.
      if (level !== "attention") return { title: "{project} · {message}", body: "{session_line}" };
      return {
        title: isPermission(event)
          ? "{project} · {agent} needs your permission"
          : "{project} · {agent} needs your input",
        body: "{message}\n{session_line}",
      };
    case "AgentNotify":
      // The agent's own words (hook-notify mcp's notify tool), made inert like any event text.
      return { title: "{project} · {title}", body: "{message}\n{session_line}" };
    case "PermissionRequest":
      return { title: "{project} · {agent} asks to use {tool}", body: "{session_line}" };
    case "PermissionDenied":
      // The agent was blocked (auto mode's check said no): say what, and why.
      return {
        title: event.toolName
          ? "{project} · {agent} was blocked: {tool} denied"
          : "{project} · {agent} was blocked: permission denied",
        body: "{denied}\n{reason}\n{session_line}",
      };
    case "Stop":
      return { title: "{project} · {agent} finished", body: "{last_message}\n{session_line}" };
    case "SubagentStop":
      return {
        title: event.agentType
          ? "{project} · Subagent finished ({agent_type})"
          : "{project} · Subagent finished",
        body: "{last_message}\n{session_line}",
      };
    case "StopFailure":
      if (level === "limit") {
        return {
          title: values.resets
            ? "{project} · {agent} hit a usage limit, {resets}"
            : "{project} · {agent} hit a usage limit",
          body: "{last_message}\n{session_line}",
        };
      }
      return {
        title: "{project} · {agent} stopped on an error ({reason})",
        body: "{error}\n{last_message}\n{session_line}",
      };
    case "SessionEnd":
      return failure
        ? {
            title: "{project} · Session ended with an error (reason: {reason})",
            body: "{session_line}\n{facts}",
          }
        : {
            // Codex sends no reason worth showing: then the title has no parentheses.
            title: event.reason
              ? "{project} · Session ended ({reason})"
              : "{project} · Session ended",
            body: "{session_line}\n{facts}",
          };
  }
}

// "Session 1aa7ab5a in /home/dev/projects/shop-api", from whatever the event carries.
function whichSession(event: HookEvent): string {
  const id = event.sessionId ? `Session ${event.sessionId.slice(0, 8)}` : "";
  const where = event.cwd ? `in ${oneLine(stripControl(event.cwd))}` : "";
  return [id, where].filter(Boolean).join(" ");
}

function isPermission(event: HookEvent): boolean {
  const type = event.notificationType;
  return (
    type === "permission_prompt" ||
    type === "worker_permission_prompt" ||
    /permission/i.test(event.message ?? "")
  );
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function shownOrUndefined(text: string | undefined): string | undefined {
  return text === undefined ? undefined : oneLine(stripControl(text));
}
