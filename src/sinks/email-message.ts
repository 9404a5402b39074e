// The mail a notification becomes: subject, plain text and a small inline-styled HTML card.
import type { Notification } from "../core/notification.js";
import { inertText } from "../shown-text.js";
import { emailHtml } from "./email-html.js";
import type { EmailOptions } from "./email-options.js";

/** The message as it is sent (and as --dry-run shows it). */
export interface EmailMessage {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

// Subject "[hook-notify] shop-api: Session ended with an error"; the title is "project · text".
export function emailMessage(notification: Notification, options: EmailOptions): EmailMessage {
  const { project, title, body } = notification;
  const text = title.startsWith(`${project} · `) ? title.slice(project.length + 3) : title;
  const subject = `${options.subjectPrefix ?? "[hook-notify]"} ${project}: ${text}`.trim();
  const facts = factsOf(notification);
  const plain = [title, "", body, "", ...facts.map(([k, v]) => `${k}: ${v}`)].join("\n");
  return {
    from: options.from,
    to: options.to,
    subject,
    text: `${plain}\n`,
    html: emailHtml(notification, facts),
  };
}

function factsOf(n: Notification): [string, string][] {
  const facts: [string, string | undefined][] = [
    ["Project", n.project],
    ["Event", n.failure ? `${n.event} (failure)` : n.event],
    ["Session", n.sessionTitle ? `${n.sessionTitle} (${n.sessionId ?? "?"})` : n.sessionId],
    ["Directory", n.cwd],
    ["Time", n.timestamp],
  ];
  // Event facts (a directory, a session id) are outside text: one inert line each.
  return facts
    .filter((fact): fact is [string, string] => fact[1] !== undefined)
    .map(([key, value]) => [key, inertText(value, "line")]);
}
