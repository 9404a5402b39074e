// The log line of one approve run: a RunRecord (so `hook-notify log` lists it with the hook runs)
// plus what was asked, where it went, and who answered what and when. Never the key or the topic.
import type { RunRecord } from "../journal/line.js";
import type { Answer, AnswerVerdict, Decision } from "./answer.js";
import type { PresenceReading } from "./gate.js";
import type { Answerer } from "./send.js";
import type { SessionGrant } from "./session-grant.js";
import type { TelegramRejected } from "./telegram-wait.js";

/** What happened to one permission request. */
export interface ApprovalLog {
  /** The request id (a fresh random nonce); empty when none was made. */
  request: string;
  tool?: string | undefined;
  /** Tool and the start of its command or file, at most 80 characters. */
  summary?: string | undefined;
  /** phone: the request was published; terminal: the dialog was left to the terminal. */
  route: "phone" | "terminal";
  why: string;
  presence?: PresenceReading | undefined;
  /** What the client was told: allow/deny from the phone, or nothing (its own dialog). */
  result: "allowed" | "denied" | "answered" | "terminal";
  answeredBy?: "phone" | "desktop" | undefined;
  answeredAt?: string | undefined;
  /** The button: allow, allow-session or deny. */
  answer?: Decision | undefined;
  /** A deny's typed reason, inert and bounded, as the agent was told it. */
  reason?: string | undefined;
  /** A question's option the person chose, its label as the agent reads it. */
  chosen?: string | undefined;
  /** What "Allow for this session" granted, in the words the phone showed. */
  granted?: string | undefined;
  /** The channel the answer came through, and the Telegram user who gave it. */
  via?: Answerer["via"] | undefined;
  user?: number | undefined;
  /** From publishing the request to the verified answer (or to giving up). */
  waitedMs?: number | undefined;
  /** Why no answer came: timeout, stream-closed, error. */
  fallback?: string | undefined;
  /** Messages on the reply topic (ntfy) or presses (Telegram) that were not accepted. */
  rejected: {
    reason: Extract<AnswerVerdict, { ok: false }>["reason"] | TelegramRejected["reason"];
    message: string;
  }[];
  /** The other channel, told that the question was answered (or ended): the banner closed, or
   * the phone's message edited (Telegram) or replaced (ntfy), and how that went. */
  withdrawn?: { where: "desktop" | "phone"; how: string } | undefined;
  /** A question the desktop banner did not ask (too many options for its notifier, no desktop
   * here, a text field): why; the phone alone answered. */
  banner?: string | undefined;
  /** The program that showed the banner that answered (terminal-notifier, powershell.exe). */
  program?: string | undefined;
  /** false when Telegram did not take the answer to the press or the edit of the message. */
  told?: false | undefined;
  /** True for `hook-notify test --approve`. */
  sample?: boolean | undefined;
}

export type ApproveRecord = RunRecord & { approval: ApprovalLog };

// A fresh record: event PermissionRequest, the terminal until shown otherwise; the client is set
// once --client is read.
export function startApproveRecord(now: number): ApproveRecord {
  return {
    time: new Date(now).toISOString(),
    ms: 0,
    event: "PermissionRequest",
    outcomes: [],
    skipped: [],
    issues: [],
    approval: { request: "", route: "terminal", why: "", result: "terminal", rejected: [] },
  };
}

// Marks the verified answer on the record: who answered what, when, and through which channel.
export function recordAnswer(
  record: ApproveRecord,
  found: { answer: Answer; at: number; by: Answerer },
  sentAt: number,
  grant?: SessionGrant,
  chosen?: string,
): void {
  const { answer, at, by } = found;
  Object.assign(record.approval, {
    result: chosen !== undefined ? "answered" : answer.decision === "deny" ? "denied" : "allowed",
    chosen,
    answer: answer.decision,
    reason: answer.reason,
    granted: answer.decision === "allow-session" ? grant?.words : undefined,
    answeredBy: by.via === "desktop" ? "desktop" : "phone",
    answeredAt: new Date(at).toISOString(),
    waitedMs: at - sentAt,
    via: by.via,
    user: by.user,
    program: by.program,
  });
}
