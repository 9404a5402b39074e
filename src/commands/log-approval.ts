// The `hook-notify log` cell of an approve run: who answered what and when, or why the terminal asked.
import type { LoggedApproval } from "../journal/line.js";
import { formatDuration } from "../message/text.js";
import type { Style } from "../style.js";

// "allowed from the phone via telegram (user 4242) at 12:03:04 (after 9s)", "denied from the
// phone …: \"not on main\"", "terminal asked: presence unknown (…)", …
export function approvalCell(
  approval: LoggedApproval,
  style: Style,
  clock: (iso: string) => string,
  event?: string,
): string {
  const waited =
    approval.waitedMs === undefined ? "" : ` (after ${formatDuration(approval.waitedMs)})`;
  const sample = approval.sample ? "sample " : "";
  const what = approval.summary ? ` · ${approval.summary}` : "";
  const ignored =
    approval.rejected.length === 0
      ? ""
      : `; ignored ${approval.rejected.length}: ${[...new Set(approval.rejected.map((r) => r.reason))].join(", ")}`;
  if (approval.result !== "terminal") {
    const at = approval.answeredAt === undefined ? "" : ` at ${clock(approval.answeredAt)}`;
    const where = approval.answeredBy === "desktop" ? "on the desktop" : "from the phone";
    const text = `${sample}${answered(approval)} ${where}${from(approval)}${at}${waited}${ignored}${what}${said(approval)}${notOnBanner(approval)}`;
    return approval.result === "denied" ? style.warn(text) : style.ok(text);
  }
  const why =
    approval.route === "terminal"
      ? approval.why
      : `no answer from the phone (${approval.fallback ?? "error"})${waited}`;
  // "Let it retry" unanswered: the block stands; nothing is asked at a terminal.
  if (event === "PermissionDenied") {
    return style.dim(`${sample}no retry: ${why || "approve could not run"}${ignored}${what}`);
  }
  return style.dim(
    `${sample}terminal asked: ${why || "approve could not run"}${ignored}${what}${notOnBanner(approval)}`,
  );
}

// " · not on the banner: the question has 4 options and …", for a question the banner did not ask.
function notOnBanner(approval: LoggedApproval): string {
  return approval.banner === undefined ? "" : ` · not on the banner: ${approval.banner}`;
}

// "allowed", "allowed for this session (allow `npm test …` commands)", "denied", "answered
// \"SQLite\"" (a question).
function answered(approval: LoggedApproval): string {
  if (approval.chosen !== undefined) return `answered ${JSON.stringify(approval.chosen)}`;
  if (approval.answer !== "allow-session") return approval.result;
  return `allowed for this session${approval.granted ? ` (${approval.granted})` : ""}`;
}

// " via telegram (user 4242)", " via ntfy", " via terminal-notifier" (a banner), or nothing for
// lines written before.
function from(approval: LoggedApproval): string {
  if (approval.via === "desktop") return approval.program ? ` via ${approval.program}` : "";
  if (approval.via === undefined) return "";
  return ` via ${approval.via}${approval.user === undefined ? "" : ` (user ${approval.user})`}`;
}

// A deny's typed reason, as the agent read it.
function said(approval: LoggedApproval): string {
  return approval.reason === undefined ? "" : ` · reason: ${JSON.stringify(approval.reason)}`;
}
