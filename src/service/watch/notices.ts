// Watch facts → notifications: the same Notification every sink takes, worded by default
// templates that the config's `templates` can replace per event (placeholders below). Pure.
import type { Config } from "../../core/config.js";
import { compact, describeUsage } from "../../message/format.js";
import type { Level, Notification } from "../../core/notification.js";
import { fillTemplate, type TemplateValues } from "../../message/template.js";
import { oneLine, stripControl, truncate } from "../../message/text.js";
import type { WatchEventName } from "../../core/hook-event.js";
import type { ComputerFact } from "./detect-computers.js";
import type { ControlsFact } from "./detect-controls.js";
import type { SessionIdleFact } from "./detect-sessions.js";
import type { UsageAlertFact } from "./alerts.js";
import { idProblem } from "../service-ids.js";
import { shellArg } from "./shell-arg.js";
import { describeTopModels, type DigestFact } from "./digest.js";

export type WatchFact = SessionIdleFact | ComputerFact | ControlsFact | DigestFact | UsageAlertFact;

const DEFAULTS: Record<WatchEventName, { title: string; body: string }> = {
  SessionIdle: {
    title: "{project} · Session {outcome}: {session_title}",
    body: "{session_title} is idle after {message_count} messages{error_note}.\n{last_message}\n{token_usage}\nAnswer it: {reply_command}",
  },
  ComputerError: {
    title: "{project} · Computer {computer} has a problem",
    body: "{problem}\n{install_messages}\nRetry the dependencies step: {retry_command}",
  },
  ComputerRecovered: {
    title: "{project} · Computer {computer} recovered",
    body: "{computer} is {status} again.",
  },
  ControlsChanged: {
    title: "{project} · Enterprise controls changed ({revisions})",
    body: "By {user} at {when}:\n{changes}",
  },
  DailyDigest: {
    title: "{project} · Usage on {date}",
    body: "Credits {credits} · active users {active_users} · sessions {sessions} · tool calls {tool_calls}\nTop models: {top_models}\nCommits {commits} · PRs {prs}",
  },
  UsageAlert: {
    title: "{project} · Credits over the limit on {date}",
    body: "{over}",
  },
};

// One notification for one fact; `project` names the service (its host).
export function noticeOf(
  fact: WatchFact,
  config: Config,
  meta: { id: string; now: number; project: string },
): Notification {
  const values: TemplateValues = { project: meta.project, event: fact.kind, ...valuesOf(fact) };
  const custom = config.templates?.[fact.kind];
  const render = (template: string) => stripControl(fillTemplate(template, values)).trim();
  const failure = fact.kind === "ComputerError" || (fact.kind === "SessionIdle" && !!fact.failure);
  return {
    id: meta.id,
    event: fact.kind,
    failure,
    level: failure ? "failure" : levelOf(fact.kind),
    title: truncate(oneLine(render(custom?.title ?? DEFAULTS[fact.kind].title)), 200),
    body: truncate(
      render(custom?.body ?? DEFAULTS[fact.kind].body).replace(/\n\s*\n/g, "\n"),
      config.maxBodyLength,
    ),
    project: meta.project,
    ...sessionOf(fact),
    timestamp: new Date(meta.now).toISOString(),
    raw: { source: "hook-notify watch", ...fact },
  };
}

// An id is the service's text: only a plain one goes into a command a person may paste in a
// shell. Anything else (`c1; curl … | sh #`) is never shown as a command to run.
const PLAIN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

// The suggested retry command, or where to find the id when it is not plain.
export function retryCommand(computerId: string): string {
  if (PLAIN_ID.test(computerId)) return `hook-notify computers retry ${computerId}`;
  return "hook-notify computers retry <id> (this computer's id is not plain text, so no command is shown: find it with hook-notify computers list)";
}

function levelOf(kind: WatchEventName): Level {
  if (kind === "ComputerError") return "failure";
  if (kind === "UsageAlert") return "attention";
  return kind === "ControlsChanged" ? "attention" : "done";
}

function sessionOf(
  fact: WatchFact,
): Pick<
  Notification,
  "sessionId" | "sessionTitle" | "messageCount" | "lastMessage" | "tokenUsage"
> {
  if (fact.kind !== "SessionIdle") return {};
  return {
    sessionId: fact.sessionId,
    ...(fact.lastMessage ? { lastMessage: fact.lastMessage } : {}),
    ...(fact.tokenUsage ? { tokenUsage: fact.tokenUsage } : {}),
    ...(fact.title ? { sessionTitle: oneLine(stripControl(fact.title)) } : {}),
    ...(fact.messageCount === undefined ? {} : { messageCount: fact.messageCount }),
  };
}

function valuesOf(fact: WatchFact): TemplateValues {
  switch (fact.kind) {
    case "SessionIdle":
      return sessionValues(fact);
    case "ComputerError":
    case "ComputerRecovered":
      return computerValues(fact);
    case "ControlsChanged":
      return controlsValues(fact);
    case "DailyDigest":
      return {
        date: fact.date,
        credits: compact(fact.credits),
        active_users: String(fact.activeUsers),
        sessions: String(fact.sessions),
        tool_calls: String(fact.toolCalls),
        top_models: describeTopModels(fact) || "none",
        commits: String(fact.commits),
        prs: String(fact.prs),
      };
    case "UsageAlert":
      return { date: fact.date, over: describeOver(fact) };
  }
}

function sessionValues(fact: SessionIdleFact): TemplateValues {
  const usage = describeUsage(fact.tokenUsage);
  return {
    session_title: oneLine(fact.title ?? "") || `session ${fact.sessionId.slice(0, 8)}`,
    session_id: fact.sessionId,
    from: fact.from,
    message_count: fact.messageCount === undefined ? "?" : String(fact.messageCount),
    outcome: fact.failure ? "failed" : "done",
    error_note: fact.failure ? ", on an error" : "",
    last_message: fact.lastMessage
      ? `Last${fact.orderGuessed ? " (as listed; the messages carry no order)" : ""}: ${truncate(oneLine(fact.lastMessage), 300)}`
      : "",
    token_usage: usage ? `Tokens: ${usage}` : "",
    reply_command: replyCommand(fact.sessionId),
  };
}

// What to type to answer: the id quoted for sh, the text after `--` (so a reply may start with
// -); an id that could not be sent to (`..`, `-x`) gets no command at all.
function replyCommand(sessionId: string): string {
  if (idProblem(sessionId)) return "(this session's id cannot be used in a command)";
  return `hook-notify sessions send ${shellArg(sessionId)} -- "…"`;
}

// "The organisation: 169.6k credits (limit 100k)\nada@example.com: 58.2k credits (limit 50k)"
function describeOver(fact: UsageAlertFact): string {
  const lines = fact.organisation
    ? [
        `The organisation: ${compact(fact.organisation.credits)} credits (limit ${compact(fact.organisation.limit)})`,
      ]
    : [];
  for (const u of fact.users.slice(0, 10))
    lines.push(
      `${oneLine(u.user)}: ${compact(u.credits)} credits (limit ${compact(fact.userLimit ?? 0)})`,
    );
  if (fact.users.length > 10) lines.push(`and ${String(fact.users.length - 10)} more users`);
  return lines.join("\n");
}

function computerValues(fact: ComputerFact): TemplateValues {
  const first = fact.failedSteps[0];
  const problem = fact.failedSteps.length
    ? fact.failedSteps
        .map((s) => `Provisioning step ${s.name} failed${s.error ? `: ${oneLine(s.error)}` : ""}`)
        .join("\n")
    : `Status: ${fact.status ?? "unknown"}`;
  return {
    computer: oneLine(fact.name),
    computer_id: fact.computerId,
    status: fact.status ?? "active",
    problem,
    step: first?.name,
    error: first?.error,
    retry_command: retryCommand(fact.computerId),
    install_messages: fact.installMessages?.length
      ? `The install session said:\n${fact.installMessages.map((m) => `- ${truncate(oneLine(m), 200)}`).join("\n")}`
      : "",
  };
}

function controlsValues(fact: ControlsFact): TemplateValues {
  return {
    revision: String(fact.revision),
    count: String(fact.count),
    revisions:
      fact.count === 1
        ? `revision ${String(fact.revision)}`
        : `${String(fact.count)}${fact.more ? "+" : ""} revisions, up to ${String(fact.revision)}`,
    user: fact.user ?? "someone",
    when: fact.updatedAt ?? "an unknown time",
    changes: fact.changes.length
      ? fact.changes.map((c) => c.line).join("\n")
      : "(no setting differs)",
  };
}
