// The ntfy message that asks the phone: publish-as-JSON with `http` actions, Allow, Allow for this
// session (when the request offers a grant) and Deny, each posting its fixed, signed answer to the
// reply topic (ntfy docs: publish.md "Action buttons", at most three). An http action's body is
// fixed when the message is published: ntfy has no way to type a reason into it.
import {
  answerBody,
  OPTIONS,
  optionIndex,
  type Decision,
  type PermissionDecision,
} from "./answer.js";
import { questionLines, type Question } from "./question.js";
import type { SessionGrant } from "./session-grant.js";
import type { NtfySetup } from "./setup.js";
import { inertText } from "../shown-text.js";
import { headline, type RequestSummary } from "./summary.js";

/** Where a request comes from, as the phone shows it. */
export interface RequestOrigin {
  project?: string | undefined;
  session?: string | undefined;
  /** "sample" for `test --approve`. */
  kind: "agent" | "sample";
  /** The client asking, as people name it ("Claude Code", "Codex"). */
  agent: string;
}

/** What the phone offers beyond Allow and Deny. */
export interface Offers {
  /** "Allow for this session" grants this. */
  grant?: SessionGrant | undefined;
  /** Telegram: a reply to the message denies with its text as the reason. */
  reply?: boolean | undefined;
  /** An AskUserQuestion: its options are the buttons, instead of Allow and Deny. */
  question?: Question | undefined;
}

/** The button labels, one place for every channel; a question's options show their own. */
export const LABELS: Record<PermissionDecision, string> = {
  allow: "Allow",
  "allow-session": "Allow for this session",
  deny: "Deny",
};

// The decisions offered, in the order shown.
export function offered(offers: Offers): Decision[] {
  if (offers.question !== undefined) return OPTIONS.slice(0, offers.question.labels.length);
  return offers.grant === undefined ? ["allow", "deny"] : ["allow", "allow-session", "deny"];
}

// A button's label: the option's own (inert, on one line) for a question's options.
export function buttonLabel(decision: Decision, offers: Offers): string {
  const index = optionIndex(decision);
  if (index === undefined) return LABELS[decision as PermissionDecision];
  return inertText(offers.question?.labels[index] ?? `Option ${index + 1}`, "line");
}

/** The JSON publish request: POST `url` with `headers` and `body`. */
export interface PublishRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

// The request message; `secret` signs the two answers, which travel as the buttons' bodies.
export function buildPublish(
  setup: NtfySetup,
  requestId: string,
  summary: RequestSummary,
  origin: RequestOrigin,
  secret: Buffer,
  offers: Offers = {},
): PublishRequest {
  const button = (decision: Decision) => ({
    action: "http",
    label: buttonLabel(decision, offers),
    url: `${setup.root}${setup.replyTopic}`,
    method: "POST",
    headers: { Authorization: `Bearer ${setup.token}` },
    body: answerBody(secret, requestId, decision),
    clear: true,
  });
  const payload = {
    topic: setup.requestTopic,
    // ntfy 2.16+: an update published with this sequence id replaces the message (withdraw.ts).
    sequence_id: requestId,
    title: requestTitle(summary, origin, offers),
    message: requestText(summary, origin, setup.seconds, requestId, offers),
    priority: 4,
    tags: ["lock"],
    actions: offered(offers).map(button),
  };
  const headers = { "content-type": "application/json", authorization: `Bearer ${setup.token}` };
  return { url: setup.root, headers, body: JSON.stringify(payload) };
}

// The question's title, on every channel.
export function requestTitle(
  summary: RequestSummary,
  origin: RequestOrigin,
  offers: Offers = {},
): string {
  if (offers.question !== undefined) {
    const { title } = offers.question;
    return title === undefined
      ? `${origin.agent} asks you a question`
      : `${origin.agent}: ${title}`;
  }
  return origin.kind === "sample"
    ? `hook-notify test: allow ${summary.tool}?`
    : `${origin.agent} asks to use ${summary.tool}`;
}

// The question's lines: what runs, where it comes from, how long the phone has.
export function requestText(
  summary: RequestSummary,
  origin: RequestOrigin,
  seconds: number,
  requestId: string,
  offers: Offers = {},
): string {
  const where = [origin.project, origin.session && `session ${origin.session.slice(0, 8)}`]
    .filter((part): part is string => typeof part === "string" && part !== "")
    .map((part) => inertText(part, "line"))
    .join(" · ");
  if (offers.question !== undefined) {
    return [
      ...questionLines(offers.question),
      offers.question.showsRequest ? headline(summary) : "",
      where,
      `Choose within ${seconds} s; otherwise the terminal asks. Question ${requestId.slice(0, 8)}.`,
    ]
      .filter((line) => line !== "")
      .join("\n");
  }
  const lines = [
    headline(summary),
    where,
    offers.grant === undefined
      ? ""
      : `${LABELS["allow-session"]}: ${offers.grant.words}, until the session ends.`,
    offers.reply ? "Reply to this message to deny with a reason: the agent reads it." : "",
    `Allow or Deny within ${seconds} s; otherwise the terminal asks. Request ${requestId.slice(0, 8)}.`,
  ];
  return lines.filter((line) => line !== "").join("\n");
}
